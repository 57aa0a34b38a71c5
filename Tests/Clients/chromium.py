"""Headless Chromium for the browser tests (Debian's chromium and chromium-driver, Selenium from
PyPI): starting it, the console's errors and warnings, and whole-page screenshots. Imported by the
browser scripts beside it.
"""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 "
          "(KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1")


def start(iphone=None, window=None, prefs=None):
    """Starts headless Chromium with its console log kept. `iphone` is (width, height, pixel ratio) to
    emulate an iPhone with touch; `window` is (width, height) of a desktop window; `prefs` are
    Chromium preferences (e.g. where downloads go)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-extensions", "--disable-background-networking"):
        options.add_argument(flag)
    if window:
        options.add_argument("--window-size=%d,%d" % window)
    if iphone:
        width, height, ratio = iphone
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": ratio, "touch": True}, "userAgent": IPHONE})
    if prefs:
        options.add_experimental_option("prefs", prefs)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def console_problems(driver):
    """The console's errors and warnings since the last call (a CSP violation is one)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]


def full_page_screenshot(driver, path, mobile=True):
    """Saves the whole page, not only the first screen, by stretching the viewport to the content's
    height for the shot, and puts the viewport back as it was."""
    width, height, ratio = driver.execute_script(
        "return [window.innerWidth, window.innerHeight, window.devicePixelRatio]")
    content = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": content, "deviceScaleFactor": ratio, "mobile": mobile})
    driver.save_screenshot(path)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": ratio, "mobile": mobile})
