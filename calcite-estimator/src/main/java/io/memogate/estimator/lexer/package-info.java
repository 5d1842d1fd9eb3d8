/**
 * The first look the proxy takes at every statement: one hand-written lexer and what can be read from its
 * tokens without parsing, in the time budget of a proxy (design doc, "Data flow of one statement", step
 * 3a-b). The skeleton is shared by every server; what differs is data and a reader the dialect supplies.
 *
 * <ul>
 * <li>{@link io.memogate.estimator.lexer.SqlLexer} tokens, by a dialect's
 *     {@link io.memogate.estimator.lexer.LexicalRules} (character classes, quote and comment forms, escapes,
 *     operators, placeholders), kept in a {@link io.memogate.estimator.lexer.TokenStream} of primitive
 *     arrays;</li>
 * <li>{@link io.memogate.estimator.lexer.StatementSplitter} statements at top-level semicolons, as psql;</li>
 * <li>{@link io.memogate.estimator.lexer.Fingerprint} the normalized statement and its hash, the estimate
 *     cache's key, and {@link io.memogate.estimator.lexer.TextSkeleton} a text's key without its constants;</li>
 * <li>{@link io.memogate.estimator.lexer.RelationBound} an upper bound of the relations, which lets
 *     statements with at most one skip admission;</li>
 * <li>{@link io.memogate.estimator.lexer.Classification} the statement's kind and its planned query;</li>
 * <li>{@link io.memogate.estimator.lexer.SettingChange} a setting a statement changes, as the dialect's
 *     {@link io.memogate.estimator.lexer.StatementReader} reads it (it also reads code blocks);</li>
 * <li>{@link io.memogate.estimator.lexer.LexicalAnalyzer} all of it for a text, lexing it once, over one
 *     dialect's rules and reader.</li>
 * </ul>
 * Nothing here throws on any text, keeps static mutable state or names a server's package. PostgreSQL's
 * rules and readers (SET/RESET/set_config, DO and PL/pgSQL bodies) are in {@code io.memogate.estimator.postgres};
 * a MySQL dialect would add its own rules value there, in {@code io.memogate.estimator.mysql} (backtick
 * identifiers, {@code #} comments, backslash escapes, comments that do not nest). The statement kinds and
 * the {@link io.memogate.estimator.lexer.Keyword} table are one set for every dialect (the words are stored
 * by ordinal in each token), so a dialect's words, PostgreSQL's {@code set_config} among them, are added there.
 */
package io.memogate.estimator.lexer;
