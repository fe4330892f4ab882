package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.schedext.testing.Http;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The web page at {@code /} in a real headless Chromium against the bundled demo cluster: it lists
 * the pending pods, shows a pod's filter matrix with the reasons the JSON explanation gives, and
 * explains a pasted pod. Runs with Debian's {@code chromium} and {@code chromium-driver} (paths
 * from the system properties {@code chromium.binary} and {@code webdriver.chrome.driver}); skipped
 * where they are not installed.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = ExplainByNameTest.UNTOUCHED_DEMO)
class WebPageBrowserTest {

  private static final Logger log = LoggerFactory.getLogger(WebPageBrowserTest.class);

  private static final Path CHROMIUM =
      Path.of(System.getProperty("chromium.binary", "/usr/bin/chromium"));
  private static final Path DRIVER =
      Path.of(System.getProperty("webdriver.chrome.driver", "/usr/bin/chromedriver"));
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Value("${local.server.port}")
  int port;

  private WebDriver driver;
  private WebDriverWait wait;

  /** Why the browser tests cannot run here, or null when Chromium and its driver are installed. */
  private static String missing;

  @BeforeAll
  static void lookForChromium() {
    List<String> absent =
        Stream.of(CHROMIUM, DRIVER)
            .filter(p -> !Files.isExecutable(p))
            .map(Path::toString)
            .toList();
    if (!absent.isEmpty()) {
      missing =
          "Browser tests of the web page skipped: "
              + String.join(" and ", absent)
              + " not found; install them with: apt-get install -y chromium chromium-driver";
      log.warn(missing);
    }
  }

  @BeforeEach
  void openBrowser(@TempDir Path profile) {
    Assumptions.assumeTrue(missing == null, missing);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1300,1800",
        "--user-data-dir=" + profile);
    // The driver is named explicitly, so Selenium never looks for (or downloads) one itself; quit()
    // stops it.
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(DRIVER.toFile())
            .usingAnyFreePort()
            .build();
    driver = new ChromeDriver(service, options);
    wait = new WebDriverWait(driver, WAIT);
  }

  @AfterEach
  void closeBrowser() {
    if (driver != null) {
      driver.quit();
    }
  }

  private void openPage() {
    driver.get("http://127.0.0.1:" + port + "/");
    wait.until(ExpectedConditions.attributeToBe(By.tagName("body"), "data-loaded", "true"));
  }

  @Test
  void listsThePendingPodsOfTheCluster() {
    openPage();
    List<String> listed =
        driver.findElements(By.cssSelector("#pending tbody tr")).stream()
            .map(r -> r.getDomAttribute("data-pod"))
            .toList();
    List<String> pending = new ArrayList<>();
    new Http(port)
        .get("/debug/pending-pods")
        .json()
        .get("pods")
        .forEach(p -> pending.add(p.get("pod").asText()));
    assertThat(listed)
        .isEqualTo(pending)
        .contains("shop/redis-2", "batch/big-batch", "batch/trainer-2");
    assertThat(driver.findElement(By.id("source")).getText()).startsWith("12 nodes,");
    assertThat(driver.findElements(By.cssSelector("#nodes tbody tr"))).hasSize(12);
  }

  @Test
  void showsThePodsFilterMatrixWithTheReasonsOfTheExplanation() throws IOException {
    openPage();
    driver
        .findElement(By.cssSelector("#pending tr[data-pod='shop/redis-2'] button.explain-pod"))
        .click();
    wait.until(ExpectedConditions.textToBe(By.id("explain-title"), "shop/redis-2"));

    JsonNode e = new Http(port).get("/scheduler/explain/shop/redis-2").json();
    assertThat(driver.findElement(By.id("summary")).getText()).isEqualTo(e.get("summary").asText());
    assertThat(matrix()).isEqualTo(expectedMatrix(e));
    assertThat(cell("node-a1", "NodePorts"))
        .isEqualTo("node(s) didn't have free ports for the requested pod ports");
    assertThat(cell("node-c1", "InterPodAffinity"))
        .isEqualTo("node(s) didn't match pod anti-affinity rules");
    assertThat(cell("node-b2", "InterPodAffinity")).isEqualTo("✓");
    assertThat(driver.findElements(By.cssSelector("#scores tbody tr"))).hasSize(3);

    screenshot("explain-shop-redis-2.png");
  }

  @Test
  void showsWhatDynamicResourcesFoundUnderItsReason() throws IOException {
    openPage();
    driver
        .findElement(By.cssSelector("#pending tr[data-pod='ml/training'] button.explain-pod"))
        .click();
    wait.until(ExpectedConditions.textToBe(By.id("explain-title"), "ml/training"));

    assertThat(cell("node-c1", "DynamicResources"))
        .isEqualTo(
            "cannot allocate all claims\n"
                + "claim ml/training-gpus, request gpus: wants 4 devices of class gpu.example.com, 0"
                + " usable\n"
                + "the node offers 2 devices, 2 of the class; request selector #0 rejected 2; 0"
                + " allocated to other claims\n"
                + "first failing: device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"80Gi\"))"
                + " >= 0 rejected gpu.example.com/node-c1/gpu-0");
    screenshot("explain-ml-training.png");
  }

  @Test
  void explainsAPastedPod() throws IOException {
    openPage();
    driver.findElement(By.id("paste")).sendKeys(ExplainByNameTest.HUGE_POD_YAML);
    driver.findElement(By.id("paste-explain")).click();
    wait.until(ExpectedConditions.textToBe(By.id("explain-title"), "batch/huge"));

    assertThat(driver.findElement(By.id("summary")).getText())
        .isEqualTo(ExplainByNameTest.HUGE_POD_SUMMARY);
    assertThat(driver.findElement(By.id("preemption-result")).getText())
        .isEqualTo(
            "Cannot help: no new claims to deallocate, preemption: 0/12 nodes are available: 12"
                + " Preemption is not helpful for scheduling.");
    assertThat(cell("node-a1", "NodeResourcesFit")).isEqualTo("Insufficient cpu");
    screenshot("explain-pasted-pod.png");
  }

  /** Keeps what the browser shows under target/browser, to look at after a run. */
  private void screenshot(String name) throws IOException {
    Path shot = Path.of("target", "browser", name);
    Files.createDirectories(shot.getParent());
    Files.write(shot, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
  }

  private String cell(String node, String plugin) {
    return driver
        .findElement(
            By.cssSelector("#matrix tr[data-node='" + node + "'] td[data-plugin='" + plugin + "']"))
        .getText();
  }

  /** The rendered matrix, read in one script call: node → plugin → cell text. */
  @SuppressWarnings("unchecked")
  private Map<String, Map<String, String>> matrix() {
    Object rows =
        ((JavascriptExecutor) driver)
            .executeScript(
                "const out = {};"
                    + "for (const tr of document.querySelectorAll('#matrix tbody tr')) {"
                    + "  const cells = {};"
                    + "  for (const td of tr.querySelectorAll('td[data-plugin]')) {"
                    + "    cells[td.dataset.plugin] = td.textContent;"
                    + "  }"
                    + "  out[tr.dataset.node] = cells;"
                    + "}"
                    + "return out;");
    return new LinkedHashMap<>((Map<String, Map<String, String>>) rows);
  }

  /**
   * What the matrix must show for explanation {@code e}: ✓ for Success, the reasons, — for plugins
   * not run.
   */
  private static Map<String, Map<String, String>> expectedMatrix(JsonNode e) {
    Map<String, Map<String, String>> want = new LinkedHashMap<>();
    for (JsonNode n : e.get("nodes")) {
      Map<String, String> cells = new LinkedHashMap<>();
      e.get("filterPlugins").forEach(p -> cells.put(p.asText(), "—"));
      for (JsonNode f : n.get("filters")) {
        List<String> reasons = new ArrayList<>();
        f.get("reasons").forEach(r -> reasons.add(r.asText()));
        cells.put(
            f.get("plugin").asText(),
            f.get("code").asText().equals("Success")
                ? "✓"
                : reasons.isEmpty() ? f.get("code").asText() : String.join(", ", reasons));
      }
      want.put(n.get("node").asText(), cells);
    }
    return want;
  }
}
