package dev.cairn.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.io.StringReader;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * The page of {@code cairn bench --html}, read as XML: a chart for each figure family, bars with
 * the right values, the command and the machine, escaped text, and nothing fetched from anywhere.
 * That the charts also render is {@link HtmlReportChromiumTest}'s part.
 */
class HtmlReportTest {

  private static final String COMMAND = "cairn bench --workload cache --html 'my report.html'";

  private static Document parse(String html) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    return factory.newDocumentBuilder().parse(new InputSource(new StringReader(html)));
  }

  @Test
  void thePage_isWellFormed_andHasAChartPerFigureFamily() throws Exception {
    String html = HtmlReport.render(SampleRuns.cache(), COMMAND, Map.of("cores", "2"));
    Document page = parse(html); // throws on any unbalanced tag or bare ampersand

    assertThat(page.getElementsByTagName("svg").getLength()).isEqualTo(SampleRuns.CHARTS);
    assertThat(byClass(page, "rect", "bar")).isEqualTo(SampleRuns.BARS);
    assertThat(byClass(page, "line", "reference")).isEqualTo(3); // 1.0x on each ratio chart
    assertThat(byClass(page, "polyline", "line")).isEqualTo(SampleRuns.STORES.length);
    assertThat(byClass(page, "circle", "point")).isEqualTo(SampleRuns.STORES.length * 4);
    assertThat(html)
        .contains("cairn bench --workload cache --html &#39;my report.html&#39;")
        .contains("<th>cores</th><td>2</td>")
        .contains("p99.99", "0.53x") // 0.53x: cairn/chm's load, 3.1M over 5.9M
        .contains("skipped: a test&#39;s note &lt;with markup&gt; &amp; an ampersand")
        .doesNotContain("NaN", "hitRatio");
  }

  @Test
  void theRatioBars_areScaledToTheirValues_andTheReferenceSitsAtOne() throws Exception {
    Document page = parse(HtmlReport.render(SampleRuns.cache(), COMMAND, Map.of()));
    NodeList rects = page.getElementsByTagName("rect");
    // the first chart: load, cairn/chm (3.1/5.9) then cairn/caffeine (3.1/2.0); scaled to 1.55
    double chm = width(rects, 0);
    double caffeine = width(rects, 1);
    assertThat(chm / caffeine).isCloseTo((3.1 / 5.9) / (3.1 / 2.0), offset(0.01));
    Element reference = (Element) page.getElementsByTagName("line").item(0);
    double x = Double.parseDouble(reference.getAttribute("x1"));
    double barStart = Double.parseDouble(((Element) rects.item(1)).getAttribute("x"));
    assertThat((x - barStart) / caffeine).isCloseTo(1 / 1.55, offset(0.01));
  }

  @Test
  void thePage_fetchesNothing() {
    String html = HtmlReport.render(SampleRuns.cache(), COMMAND, MachineDescription.current());
    assertThat(html.toLowerCase(java.util.Locale.ROOT))
        .doesNotContain("http:", "https:", "<script", "<link", "<img", "@import", "url(");
  }

  @Test
  void theMachine_saysWhatItCan() {
    Map<String, String> machine = MachineDescription.current();
    assertThat(machine).containsKeys("cores", "system", "java", "written");
    assertThat(machine.get("cores"))
        .isEqualTo(Integer.toString(Runtime.getRuntime().availableProcessors()));
  }

  @Test
  void numbers_readAsAPersonWouldWriteThem() {
    assertThat(HtmlReport.human(12_345_678)).isEqualTo("12.35M");
    assertThat(HtmlReport.human(45_600)).isEqualTo("45.6k");
    assertThat(HtmlReport.human(122.5)).isEqualTo("123");
    assertThat(HtmlReport.human(0.0123)).isEqualTo("0.0123");
    assertThat(HtmlReport.micros(8800)).isEqualTo("8.80 ms");
    assertThat(HtmlReport.micros(0.4)).isEqualTo("0.400 µs");
  }

  private static int byClass(Document page, String tag, String cssClass) {
    NodeList nodes = page.getElementsByTagName(tag);
    int count = 0;
    for (int i = 0; i < nodes.getLength(); i++) {
      if (cssClass.equals(((Element) nodes.item(i)).getAttribute("class"))) {
        count++;
      }
    }
    return count;
  }

  private static double width(NodeList rects, int bar) {
    int seen = 0;
    for (int i = 0; i < rects.getLength(); i++) {
      Element e = (Element) rects.item(i);
      if ("bar".equals(e.getAttribute("class")) && seen++ == bar) {
        return Double.parseDouble(e.getAttribute("width"));
      }
    }
    throw new AssertionError("no bar " + bar);
  }
}
