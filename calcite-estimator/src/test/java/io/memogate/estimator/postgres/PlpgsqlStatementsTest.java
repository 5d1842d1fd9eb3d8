package io.memogate.estimator.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlpgsqlStatementsTest {

    @Test
    void statementsOfABlockInOrder() {
        String body = """
                declare
                  n int;
                begin
                  insert into log (at) values (now());
                  update t set a = 1 where b = 2;
                  delete from u where c in (select c from v);
                  with x as (select 1) select * from x join y on true;
                end
                """;
        assertThat(PlpgsqlStatements.of(body)).containsExactly(
                "insert into log (at) values (now())",
                "update t set a = 1 where b = 2",
                "delete from u where c in (select c from v)",
                "with x as (select 1) select * from x join y on true");
    }

    @Test
    void intoTargetsAreTakenOutAsPlpgsqlDoes() {
        assertThat(PlpgsqlStatements.of("begin select a, b into strict x, r.y from t join u using (k); end"))
                .containsExactly("select a, b from t join u using (k)");
        assertThat(PlpgsqlStatements.of("begin insert into t values (1) returning id into new_id; end"))
                .containsExactly("insert into t values (1) returning id");
        assertThat(PlpgsqlStatements.of("begin merge into t using s on t.k = s.k when matched then delete; end"))
                .containsExactly("merge into t using s on t.k = s.k when matched then delete");
    }

    @Test
    void performIsASelect() {
        assertThat(PlpgsqlStatements.of("begin perform pg_sleep(1); perform * from a join b on a.k = b.k; end"))
                .containsExactly("SELECT pg_sleep(1)", "SELECT * from a join b on a.k = b.k");
    }

    @Test
    void queriesOfLoopsCursorsAndReturnQuery() {
        String body = """
                declare
                  c cursor for select * from a join b on a.k = b.k;
                begin
                  for r in select * from c1 join c2 on c1.k = c2.k loop
                    insert into out values (r.k);
                  end loop;
                  open c2 for select * from d join e using (k);
                  for i in 1..10 loop
                    null;
                  end loop;
                  return query select * from f join g using (k);
                end
                """;
        assertThat(PlpgsqlStatements.of(body)).containsExactly(
                "select * from a join b on a.k = b.k",
                "select * from c1 join c2 on c1.k = c2.k",
                "insert into out values (r.k)",
                "select * from d join e using (k)",
                "select * from f join g using (k)");
    }

    @Test
    void expressionsWithASubqueryArePlannedAsSelects() {
        String body = """
                declare
                  total bigint := (select count(*) from a join b using (k));
                  plain int := 1;
                begin
                  if exists (select 1 from c join d using (k)) then
                    x = (select max(v) from e join f using (k));
                  elsif n > 1 then
                    y := n + 1;
                  end if;
                  while (select count(*) from q) > 0 loop
                    delete from q where k = 1;
                  end loop;
                  return (select min(v) from g join h using (k));
                end
                """;
        assertThat(PlpgsqlStatements.of(body)).containsExactly(
                "SELECT (select count(*) from a join b using (k))",
                "SELECT exists (select 1 from c join d using (k))",
                "SELECT (select max(v) from e join f using (k))",
                "SELECT (select count(*) from q) > 0",
                "delete from q where k = 1",
                "SELECT (select min(v) from g join h using (k))");
    }

    @Test
    void caseExpressionsInsideAStatementStayWhole() {
        assertThat(PlpgsqlStatements.of(
                "begin update t set a = case when b then 1 else 2 end where c; end"))
                .containsExactly("update t set a = case when b then 1 else 2 end where c");
        assertThat(PlpgsqlStatements.of("begin select a from t for update into x; end"))
                .containsExactly("select a from t for update");
    }

    /** A CASE expression in a condition has THENs of its own: the condition ends at the THEN after its END. */
    @Test
    void aConditionHoldingACaseExpressionEndsAtItsOwnThen() {
        String body = """
                begin
                  if case when n > 0 then (select count(*) from a join b using (k)) else 0 end > 1 then
                    delete from q;
                  elsif case n when 1 then true else false end then
                    exit when case when m then (select 1 from c join d using (k)) end is null;
                  end if;
                end
                """;
        assertThat(PlpgsqlStatements.of(body)).containsExactly(
                "SELECT case when n > 0 then (select count(*) from a join b using (k)) else 0 end > 1",
                "delete from q",
                "SELECT case when m then (select 1 from c join d using (k)) end is null");
    }

    @Test
    void executeOfAConstantTextIsTheQueryItRuns() {
        assertThat(PlpgsqlStatements.of("begin execute 'select * from a join b using (k)' into n; end"))
                .containsExactly("select * from a join b using (k)");
        assertThat(PlpgsqlStatements.of("begin execute 'select * from a ' || 'join b using (k)' using x; end"))
                .containsExactly("select * from a join b using (k)");
        assertThat(PlpgsqlStatements.of("begin return query execute format('select * from %I join b using (k)"
                + " where v = %L and w like ''%%x'' and %1$s > 0', t, v); end")).containsExactly(
                        "select * from memogate_dynamic join b using (k) where v = NULL and w like '%x'"
                                + " and memogate_dynamic > 0");
        assertThat(PlpgsqlStatements.of("begin for r in execute $q$select 1 from c join d using (k)$q$ loop"
                + " null; end loop; open cur for execute 'select * from e join f using (k)'; end"))
                .containsExactly("select 1 from c join d using (k)", "select * from e join f using (k)");
    }

    @Test
    void dynamicSqlBuiltFromVariablesAndBodiesWithoutQueriesYieldNothing() {
        assertThat(PlpgsqlStatements.of("begin execute 'select * from ' || tbl; raise notice 'x %', 1; end"))
                .isEmpty();
        assertThat(PlpgsqlStatements.of("begin return query execute sql_text; end")).isEmpty();
        assertThat(PlpgsqlStatements.of("begin execute format(template, c); end")).isEmpty();
        assertThat(PlpgsqlStatements.of("")).isEmpty();
        assertThat(PlpgsqlStatements.of("begin null; end")).isEmpty();
        assertThat(PlpgsqlStatements.of("begin x := 1; return x + 1; end")).isEmpty();
    }

    @Test
    void exceptionHandlersAndLabels() {
        String body = """
                <<outer>> begin
                  select 1 into x from a join b using (k);
                exception when unique_violation then
                  update a set v = 0;
                end outer
                """;
        assertThat(PlpgsqlStatements.of(body)).containsExactly(
                "select 1 from a join b using (k)", "update a set v = 0");
    }

    @Test
    void sqlCommandsAreTakenAtStatementStartsOnly() {
        String body = """
                begin
                  call load_step(1);
                  create table if not exists s as select * from a join b using (k);
                  create view v as select * from c join d using (k);
                  refresh materialized view concurrently mv;
                  grant select, insert on t to app;
                  n := heavy(2);
                  foreach x in array (select array_agg(k) from e join f using (k)) loop
                    exit when (select count(*) from g join h using (k)) > 1;
                  end loop;
                end
                """;
        assertThat(PlpgsqlStatements.of(body)).containsExactly(
                "call load_step(1)",
                "create table if not exists s as select * from a join b using (k)",
                "create view v as select * from c join d using (k)",
                "refresh materialized view concurrently mv",
                "SELECT heavy(2)",
                "SELECT array (select array_agg(k) from e join f using (k))",
                "SELECT (select count(*) from g join h using (k)) > 1");
    }

    @Test
    void declarationsWithDefaultsAndCursors() {
        String body = """
                declare
                  a int default (select max(k) from a join b using (k));
                  b constant int = 1;
                  c no scroll cursor (p int) for select * from c join d using (k) where k = p;
                begin
                  null;
                end
                """;
        assertThat(PlpgsqlStatements.of(body)).containsExactly(
                "SELECT (select max(k) from a join b using (k))",
                "select * from c join d using (k) where k = p");
    }

    @Test
    void unbalancedOrTruncatedBodiesDoNotThrow() {
        assertThat(PlpgsqlStatements.of("begin select (((( from a join b")).containsExactly("select (((( from a join b");
        assertThat(PlpgsqlStatements.of("begin select a into")).containsExactly("select a");
        assertThat(PlpgsqlStatements.of("if then loop ;;; := = return query")).isEmpty();
    }
}
