package io.memogate.proxy.calibrate.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Compiles read off showplan XML in SQL Server's format (src/test/resources/sqlserver/showplans). */
class ShowplansTest {

    private static String resource(String name) throws IOException {
        try (InputStream in = ShowplansTest.class.getResourceAsStream("/sqlserver/showplans/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aStatementsTextCompileMemoryAndWhyItsSearchEnded() throws IOException {
        List<Showplans.Compile> compiles = Showplans.read(resource("job-1a.sqlplan"));
        assertThat(compiles).singleElement().satisfies(c -> {
            assertThat(c.statement()).startsWith("SELECT MIN(mc.note) AS production_note").contains("'%(presents)%'");
            assertThat(c.compileMemoryBytes()).isEqualTo(1840L * 1024);
            assertThat(c.earlyAbortReason()).contains("TimeOut");
        });
    }

    @Test
    void statementsWithoutAPlanAreLeftOutAndBrokenXmlIsAnError() throws IOException {
        String two = """
                <ShowPlanXML xmlns="http://schemas.microsoft.com/sqlserver/2004/07/showplan"><BatchSequence><Batch>
                <Statements><StmtSimple StatementText="SET NOCOUNT ON" StatementType="SET ON/OFF"/>
                <StmtSimple StatementText="SELECT a FROM t JOIN u ON u.id = t.id" StatementOptmLevel="FULL">
                <QueryPlan CompileMemory="312"/></StmtSimple></Statements></Batch></BatchSequence></ShowPlanXML>""";
        assertThat(Showplans.read(two)).singleElement().satisfies(c -> {
            assertThat(c.statement()).isEqualTo("SELECT a FROM t JOIN u ON u.id = t.id");
            assertThat(c.earlyAbortReason()).isEmpty();
        });
        assertThatThrownBy(() -> Showplans.read("<ShowPlanXML><QueryPlan")).isInstanceOf(IOException.class)
                .hasMessageStartingWith("not a showplan");
    }
}
