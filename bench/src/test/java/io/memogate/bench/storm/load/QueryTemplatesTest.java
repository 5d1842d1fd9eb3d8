package io.memogate.bench.storm.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class QueryTemplatesTest {

    private static final Pattern JOIN = Pattern.compile("\\bJOIN\\b");

    @Test
    void tenStarAndSnowflakeReportsOfTwelveToTwentyJoins() {
        List<Template> templates = QueryTemplates.load();

        assertThat(templates).extracting(Template::name)
                .containsExactly("t01", "t02", "t03", "t04", "t05", "t06", "t07", "t08", "t09", "t10");
        for (Template template : templates) {
            long joins = JOIN.matcher(template.sql()).results().count();
            assertThat(joins).as(template.name()).isBetween(12L, 20L);
            assertThat(template.sql()).as(template.name()).startsWith("SELECT").contains("FROM sales AS s")
                    .doesNotContain(";");
            assertThat(template.description()).as(template.name()).contains(joins + " joins");
        }
    }

    @Test
    void everySubmissionIsADifferentText() {
        Template template = QueryTemplates.load().getFirst();

        String first = template.render(3, 17, 123_456);
        String second = template.render(3, 18, 123_457);

        assertThat(first).contains("/* storm client 3 submission 17 */").contains("s.quantity < 123456")
                .doesNotContain("{tag}").doesNotContain("{k}");
        assertThat(second).isNotEqualTo(first);
    }

    @Test
    void aTemplateRunsToItsSemicolonAndItsDescriptionMayGoOnForLines() {
        List<Template> templates = QueryTemplates.parse("""
                -- header comment, not a template
                -- x1: the first
                -- and more of it
                SELECT {tag} 1 FROM sales AS s
                WHERE s.quantity < {k};
                -- x2: the second
                SELECT {tag} 2 FROM sales AS s WHERE s.quantity < {k};
                """);

        assertThat(templates).containsExactly(
                new Template("x1", "the first and more of it", "SELECT {tag} 1 FROM sales AS s\nWHERE s.quantity < {k}"),
                new Template("x2", "the second", "SELECT {tag} 2 FROM sales AS s WHERE s.quantity < {k}"));
    }
}
