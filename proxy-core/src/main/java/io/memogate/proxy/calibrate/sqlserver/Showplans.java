package io.memogate.proxy.calibrate.sqlserver;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The compiles a SQL Server showplan records (<a href="https://schemas.microsoft.com/sqlserver/2004/07/showplan">the
 * showplan schema</a>): per statement ({@code StmtSimple}), its {@code StatementText}, why the optimizer stopped
 * ({@code StatementOptmEarlyAbortReason}: TimeOut, GoodEnoughPlanFound, MemoryLimitExceeded, or none when it
 * finished), and its {@code QueryPlan}'s {@code CompileMemory} in KB. What {@code SET SHOWPLAN_XML ON}, {@code SET
 * STATISTICS XML ON}, Query Store's {@code query_plan} and a saved .sqlplan file hold. Read with the JDK's StAX,
 * external entities off.
 */
public final class Showplans {

    /** One compiled statement: its text, its compile memory, and why its search ended, when it ended early. */
    public record Compile(String statement, long compileMemoryBytes, Optional<String> earlyAbortReason) {
    }

    private Showplans() {
    }

    /** The statements of {@code showplan} that carry a compile memory, in order. */
    public static List<Compile> read(String showplan) throws IOException {
        return read(new StringReader(showplan));
    }

    /** As {@link #read(String)}, from a reader. */
    public static List<Compile> read(Reader showplan) throws IOException {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        List<Compile> compiles = new ArrayList<>();
        try {
            XMLStreamReader xml = factory.createXMLStreamReader(showplan);
            String statement = null;
            Optional<String> reason = Optional.empty();
            while (xml.hasNext()) {
                if (xml.next() != XMLStreamReader.START_ELEMENT) {
                    continue;
                }
                String element = xml.getLocalName();
                if (element.equals("StmtSimple")) {
                    statement = xml.getAttributeValue(null, "StatementText");
                    reason = Optional.ofNullable(xml.getAttributeValue(null, "StatementOptmEarlyAbortReason"));
                } else if (element.equals("QueryPlan") && statement != null) {
                    String memory = xml.getAttributeValue(null, "CompileMemory");
                    if (memory != null) {
                        compiles.add(new Compile(statement.strip(), kilobytes(memory) * 1024, reason));
                    }
                    statement = null;
                }
            }
        } catch (XMLStreamException e) {
            throw new IOException("not a showplan: " + e.getMessage(), e);
        }
        return compiles;
    }

    private static long kilobytes(String value) throws IOException {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new IOException("CompileMemory must be a number of KB, was '" + value + "'", e);
        }
    }
}
