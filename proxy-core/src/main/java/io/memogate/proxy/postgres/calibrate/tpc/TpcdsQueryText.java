package io.memogate.proxy.postgres.calibrate.tpc;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes hydromatic's generated TPC-DS text something PostgreSQL plans. Its generator leaves a few
 * templates half substituted ({@code define} lines, {@code [NAME]} parameters, dsdgen functions such as
 * {@code date(...)}) and writes date arithmetic as {@code + 30 days}; the report must plan the query
 * PostgreSQL users run, and literal values do not change planner memory, so:
 * <ul>
 *   <li>{@code define} lines are dropped;
 *   <li>a quoted literal still holding a parameter or a dsdgen function becomes {@code '2000-01-15'},
 *   which reads as a date or as a string; an unquoted parameter or dsdgen function becomes {@code 1};
 *   <li>{@code + 30 days} becomes {@code + interval '30 days'};
 *   <li>the customer table's {@code c_last_review_date} is spelled as TPC-DS 2 names it,
 *   {@code c_last_review_date_sk};
 *   <li>in queries 36, 70 and 86, {@code case when lochierarchy = 0 ...} in the ORDER BY reads the select list's
 *   {@code lochierarchy} inside an expression, which PostgreSQL does not allow (an output name only stands alone
 *   there: ERROR 42703), so the aliased expression takes its place, as PostgreSQL ports of TPC-DS write it.
 * </ul>
 */
final class TpcdsQueryText {

    private static final Pattern DEFINE = Pattern.compile("(?im)^\\s*define\\s.*$");
    /** Every quoted literal, left to right, so that the text between two literals is never taken for one. */
    private static final Pattern LITERAL = Pattern.compile("'(?:[^']|'')*'");
    private static final Pattern UNRESOLVED = Pattern.compile("\\[[A-Za-z_0-9. ]+\\]|\\b(?:date|distmember|dist|ulist|random|text)\\(");
    private static final Pattern FUNCTION = Pattern.compile("\\b(?:distmember|dist|ulist|random)\\([^()]*\\)");
    private static final Pattern PARAMETER = Pattern.compile("\\[[A-Za-z_0-9]+(\\.\\d+)?\\]");
    private static final Pattern DAYS = Pattern.compile("([+-])\\s*(\\d+)\\s+days\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern LAST_REVIEW = Pattern.compile("\\bc_last_review_date\\b");
    /** The select list's {@code <expression> as lochierarchy}: the expression between the comma and the alias. */
    private static final Pattern LOCHIERARCHY = Pattern.compile("(?i),\\s*([^,]+?)\\s+as\\s+lochierarchy\\b");
    private static final Pattern LOCHIERARCHY_IN_CASE = Pattern.compile("(?i)\\bwhen\\s+lochierarchy\\b");

    private TpcdsQueryText() {
    }

    static String forPostgres(String generated) {
        String text = DEFINE.matcher(generated).replaceAll("");
        text = LITERAL.matcher(text).replaceAll(m -> Matcher.quoteReplacement(
                UNRESOLVED.matcher(m.group()).find() ? "'2000-01-15'" : m.group()));
        text = FUNCTION.matcher(text).replaceAll("1");
        text = PARAMETER.matcher(text).replaceAll("1");
        text = DAYS.matcher(text).replaceAll(m -> m.group(1) + " interval '" + m.group(2) + " days'");
        text = LAST_REVIEW.matcher(text).replaceAll(Matcher.quoteReplacement("c_last_review_date_sk"));
        return withLochierarchySpelledOut(text);
    }

    private static String withLochierarchySpelledOut(String text) {
        Matcher alias = LOCHIERARCHY.matcher(text);
        if (!alias.find()) {
            return text;
        }
        String expression = "(" + alias.group(1).strip() + ")";
        return LOCHIERARCHY_IN_CASE.matcher(text).replaceAll(Matcher.quoteReplacement("when " + expression));
    }
}
