package io.ramjet.consoleit;

import org.openqa.selenium.By;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Debian's headless Chromium driven through its own chromedriver (no driver or browser is
 * downloaded): the packages {@code chromium} and {@code chromium-driver}, which {@code .ci/run}
 * installs. Missing, the test fails naming them rather than skipping.
 */
final class Chromium {

    private static final Path BROWSER = Path.of("/usr/bin/chromium");
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    private Chromium() {
    }

    /** @param profile an empty directory for the browser's profile */
    static ChromeDriver start(Path profile) {
        if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
            fail("the console's browser test needs " + BROWSER + " and " + DRIVER
                    + ": apt-get install -y chromium chromium-driver");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1400,1000", "--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(DRIVER.toString()))
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        return driver;
    }

    /** Waits for the condition; on a timeout, fails with what the page shows. */
    static <T> T await(WebDriver browser, Function<WebDriver, T> condition) {
        try {
            return new WebDriverWait(browser, Duration.ofSeconds(30)).until(condition);
        } catch (TimeoutException e) {
            throw new AssertionError("the page shows:\n" + browser.findElement(By.tagName("body")).getText(), e);
        }
    }
}
