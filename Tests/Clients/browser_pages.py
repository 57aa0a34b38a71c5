#!/usr/bin/env python3
"""Opens betactl pages in real headless Chromium (Selenium + chromium-driver) and reports what a
tester sees on each, as a JSON array: install links, whether the QR code is shown and loaded,
notices, console errors (a Content-Security-Policy violation shows up there), and a screenshot.

Usage: browser_pages.py URL MODE SCREENSHOT [URL MODE SCREENSHOT ...]
MODE is `iphone` (an iPhone user agent with touch emulation at phone width), `ipad` (iPadOS Safari's
Mac user agent, MacIntel platform and five touch points) or `desktop`. One browser visits them all
in turn (starting Chromium costs more than a visit); each visit sets its own emulation through the
DevTools protocol, so nothing of one carries into the next.
"""
import json
import sys

from selenium.webdriver.common.by import By

import chromium

IPAD = ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
        "(KHTML, like Gecko) Version/17.1 Safari/605.1.15")


def emulate(driver, mode, desktop_agent):
    """Sets the user agent, touch and screen of `mode` (the desktop gets Chromium's own)."""
    if mode == "iphone":
        agent, platform, touch, metrics = chromium.IPHONE, "iPhone", True, {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
    elif mode == "ipad":
        agent, platform, touch, metrics = IPAD, "MacIntel", True, {"width": 820, "height": 1180, "deviceScaleFactor": 2, "mobile": True}
    elif mode == "desktop":
        agent, platform, touch, metrics = desktop_agent, "Linux x86_64", False, {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}
    else:
        raise SystemExit("unknown mode %r: use iphone, ipad or desktop" % mode)
    driver.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": agent, "platform": platform})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": touch, "maxTouchPoints": 5 if touch else 1})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def visit(driver, url, mode, screenshot, desktop_agent):
    driver.get("about:blank")
    chromium.console_problems(driver)  # what earlier visits logged is not this page's
    emulate(driver, mode, desktop_agent)
    driver.get(url)
    driver.execute_script("return document.readyState")

    def visible(selector):
        return [e for e in driver.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()]

    qr = visible("img.qr-code")
    report = {
        "url": url,
        "mode": mode,
        "title": driver.title,
        "installHrefs": [e.get_attribute("href") for e in visible("a.install")],
        "disabledInstalls": len(visible("button.install[disabled]")),
        "reasons": [e.text for e in visible(".why")],
        "qrVisible": bool(qr),
        "qrLoaded": bool(qr) and driver.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth > 0", qr[0]),
        "bodyClasses": driver.find_element(By.TAG_NAME, "body").get_attribute("class"),
        "notices": [e.get_attribute("id") for e in visible(".notice")],
        "stylesheetApplied": driver.execute_script(
            "return getComputedStyle(document.querySelector('.masthead')).color === 'rgb(255, 255, 255)'"),
        "pageWidth": driver.execute_script("return document.documentElement.scrollWidth"),
        "viewportWidth": driver.execute_script("return window.innerWidth"),
        "userAgent": driver.execute_script("return navigator.userAgent"),
        "console": chromium.console_problems(driver),
    }
    chromium.full_page_screenshot(driver, screenshot, mobile=mode != "desktop")
    return report


def main():
    arguments = sys.argv[1:]
    if not arguments or len(arguments) % 3:
        raise SystemExit(__doc__)
    driver = chromium.start(window=(1280, 900))
    try:
        desktop_agent = driver.execute_script("return navigator.userAgent")
        reports = [visit(driver, arguments[i], arguments[i + 1], arguments[i + 2], desktop_agent)
                   for i in range(0, len(arguments), 3)]
        print(json.dumps(reports))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
