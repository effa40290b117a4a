package io.sluice.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testsupport.CommandResult;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * {@code sluice report} as a person sees it: the report of the init pipeline after one run,
 * opened from disk in headless Chromium (Debian's chromium and chromium-driver, which
 * {@code .ci/run} installs). Every dataset is drawn, the page's script ran without an error in
 * the console, a click on a dataset marks its flow, and a screenshot is kept in
 * {@code target/artifacts/report.png}.
 */
class ReportBrowserE2E {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  @TempDir Path tmp;

  @Test
  void theReportShowsEveryDatasetInABrowser() throws IOException {
    assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "this test needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver; .ci/run does)");
    Path dir = tmp.resolve("shop");
    Sluice.PROCESS.ok(tmp, "init", "shop");
    Sluice.PROCESS.ok(dir, "run");
    CommandResult report = Sluice.PROCESS.ok(dir, "report");
    Path page = dir.resolve(".sluice/report.html");
    assertTrue(report.stdout().contains("wrote " + page), report::toString);

    ChromeDriver browser = chromium();
    try {
      browser.get(page.toUri().toString());
      assertEquals("true", browser.findElement(By.tagName("body")).getDomAttribute("data-ready"), "the page's script ran to its end");
      for (String dataset : List.of("orders_raw", "orders_clean", "customer_revenue", "json files data/orders")) {
        WebElement node = browser.findElement(By.cssSelector("svg.pipeline-graph g.node[data-name='" + dataset + "'] rect"));
        assertTrue(node.isDisplayed() && node.getRect().getWidth() > 40 && node.getRect().getHeight() > 20,
            () -> dataset + " is drawn: " + node.getRect());
      }
      assertEquals(3, browser.findElements(By.cssSelector("svg.pipeline-graph g.edge")).size(), "source -> raw -> clean -> revenue");

      browser.findElement(By.cssSelector("g.node[data-name='orders_clean']")).click();
      WebElement row = browser.findElement(By.cssSelector("table.flows tr[data-dataset='orders_clean']"));
      assertTrue(row.getDomAttribute("class").contains("highlight"), "a click on a dataset marks its flow");
      assertTrue(row.getText().contains("COMPLETED"), row::getText);

      List<LogEntry> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
          .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
      assertEquals(List.of(), errors, "no error in the browser's console");

      Path artifacts = Files.createDirectories(Path.of("target", "artifacts"));
      Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), artifacts.resolve("report.png"), StandardCopyOption.REPLACE_EXISTING);
      Files.copy(page, artifacts.resolve("report.html"), StandardCopyOption.REPLACE_EXISTING);
    } finally {
      browser.quit();
    }
  }

  /** Headless Chromium with the flags a closed network needs, and its console kept. */
  private ChromeDriver chromium() {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--window-size=1400,1100", "--user-data-dir=" + tmp.resolve("chromium-profile"));
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
    return new ChromeDriver(service, options);
  }
}
