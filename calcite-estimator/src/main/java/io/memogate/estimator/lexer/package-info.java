/**
 * The first look the proxy takes at every statement: a hand-written lexer for PostgreSQL's lexical rules
 * and what can be read from its tokens without parsing, in the time budget of a proxy (design doc, "Data
 * flow of one statement", step 3a-b).
 *
 * <ul>
 * <li>{@link io.memogate.estimator.lexer.SqlLexer} tokens, kept in a
 *     {@link io.memogate.estimator.lexer.TokenStream} of primitive arrays;</li>
 * <li>{@link io.memogate.estimator.lexer.StatementSplitter} statements at top-level semicolons, as psql;</li>
 * <li>{@link io.memogate.estimator.lexer.Fingerprint} the normalized statement and its hash, the estimate
 *     cache's key;</li>
 * <li>{@link io.memogate.estimator.lexer.RelationBound} an upper bound of the relations, which lets
 *     statements with at most one skip admission;</li>
 * <li>{@link io.memogate.estimator.lexer.Classification} the statement's kind and its planned query;</li>
 * <li>{@link io.memogate.estimator.lexer.SettingChange} SET, RESET and set_config;</li>
 * <li>{@link io.memogate.estimator.lexer.LexicalAnalyzer} all of it for a text, lexing it once.</li>
 * </ul>
 * Nothing here throws on any text or keeps static mutable state; the lexical rules follow
 * <a href="https://www.postgresql.org/docs/current/sql-syntax-lexical.html">SQL Syntax, Lexical Structure</a>
 * and the server's src/backend/parser/scan.l.
 */
package io.memogate.estimator.lexer;
