package io.memogate.estimator.lexer;

import java.util.Objects;
import java.util.Optional;

/**
 * What the lexical analysis found out about one statement of a text.
 *
 * @param span where the statement lies in the analysed text (without its semicolon)
 * @param classification its kind and where its planned query lies
 * @param fingerprint the estimate cache's key
 * @param relationBound the upper bound of relations and the nesting depth
 * @param settingChange the setting it changes, if it is a SET, RESET or set_config
 * @param oversized longer than the analyzer's maximum: fingerprinted by length and samples, classified from
 *     the tokens of its first maximum characters; the relation bound still covers every token
 * @param size its tokens and lists of constants (for an oversized statement, its first maximum characters'
 *     counts scaled to all its tokens)
 */
public record StatementAnalysis(
        StatementSpan span,
        Classification classification,
        Fingerprint fingerprint,
        RelationBound relationBound,
        Optional<SettingChange> settingChange,
        boolean oversized,
        StatementSize size) {

    public StatementAnalysis {
        Objects.requireNonNull(span, "span");
        Objects.requireNonNull(classification, "classification");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(relationBound, "relationBound");
        Objects.requireNonNull(settingChange, "settingChange");
        Objects.requireNonNull(size, "size");
    }

    public StatementKind kind() {
        return classification.kind();
    }

    /**
     * True when admission has nothing to guard as far as the relations tell: the server plans nothing for the
     * statement, or plans a query whose text names at most one relation (the paper's "small diagnostic queries
     * proceed unblocked"). The estimator also weighs the statement's {@link #size()}: a one-relation statement
     * with an IN list of 100,000 constants does not bypass it.
     * False for EXECUTE and REFRESH MATERIALIZED VIEW, whose query is not in the text: the caller has to
     * look at the prepared statement or the view. Views and functions the text names are expanded by the
     * planner unseen, as {@link RelationBound} says (the estimator looks for the views its catalog knows).
     */
    public boolean skipsAdmission() {
        if (!classification.isPlanned()) {
            return true;
        }
        return classification.hasQueryText() && relationBound.atMostOneRelation();
    }

    /**
     * What the estimate caches key the statement by besides its fingerprint: its {@link StatementSize#sizeClass()},
     * 0 when oversized (its fingerprint's hash then covers its length).
     */
    public int sizeClass() {
        return oversized ? 0 : size.sizeClass();
    }

    public int relations() {
        return relationBound.relations();
    }

    public int maxNestingDepth() {
        return relationBound.maxNestingDepth();
    }
}
