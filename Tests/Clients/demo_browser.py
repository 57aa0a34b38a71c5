#!/usr/bin/env python3
"""Opens the dashboard of `betactl demo` in real headless Chromium at phone width (375 px,
Selenium + chromium-driver) through the one-time link the demo prints, visits every dashboard
page, and reports what each showed as JSON.

Usage: demo_browser.py BASE LOGIN_URL SCREENSHOT_DIR

Pages are found as a person finds them: the navigation, then the first tester, release and
profile of their lists, every crash group and every crash report linked from the crash pages.
For each page it records the URL, the main area's text, the empty-state sentences shown
(`.empty`), the document's scroll width against the viewport's, and the elements that reach
past the viewport's edges outside a scrolling box; a whole-page screenshot goes to
SCREENSHOT_DIR/<name>.png. Console errors (a CSP violation is one) are collected.
"""
import json
import re
import sys

from selenium.webdriver.common.by import By

import chromium
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

WIDTH, HEIGHT = 375, 812

# Elements whose box reaches past the phone's width, unless a scrolling (or clipping) ancestor
# that itself fits holds them: a wide table in a horizontally scrolling wrapper is fine. (A phone
# zooms a page wider than its screen out, so the screen's width is the measure, not innerWidth.)
OVERFLOWING = """
const width = Math.min(window.innerWidth, screen.width);
const clipped = (element) => {
    for (let node = element.parentElement; node && node !== document.documentElement; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX;
        if (overflow !== 'visible') {
            const box = node.getBoundingClientRect();
            return box.left >= -1 && box.right <= width + 1;
        }
    }
    return false;
};
const found = [];
for (const element of document.body.querySelectorAll('*')) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if ((box.right > width + 1 || box.left < -1) && !clipped(element)) {
        const name = element.tagName.toLowerCase() + (element.id ? '#' + element.id : '')
            + (element.className && typeof element.className === 'string' ? '.' + element.className.trim().split(/\\s+/).join('.') : '');
        found.push(name + ' [' + Math.round(box.left) + ', ' + Math.round(box.right) + ']');
    }
}
return found.slice(0, 20);
"""


def main():
    base, login, shots = sys.argv[1:4]
    driver = chromium.start(iphone=(WIDTH, HEIGHT, 2.0))
    wait = WebDriverWait(driver, 120)
    report = {"pages": {}, "order": []}
    try:
        driver.get(login)
        wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, ".admin-main")))
        report["afterLogin"] = driver.current_url
        report["loggedIn"] = bool(driver.find_elements(By.CSS_SELECTOR, ".admin-nav"))
        if not report["loggedIn"]:
            print(json.dumps(report))
            return

        def links(selector):
            return [element.get_attribute("href") for element in driver.find_elements(By.CSS_SELECTOR, selector)]

        pages = {}
        driver.get(base + "/admin")
        for href in links(".admin-nav a"):
            name = href.replace(base, "").strip("/").replace("admin", "", 1).strip("/") or "overview"
            pages[name] = href
        for name, path, selector in (("tester", "/admin/testers", "main a[href*='/admin/testers/']"),
                                     ("release", "/admin/releases", "main a[href*='/admin/releases/']"),
                                     ("profile", "/admin/profiles", "main a[href*='/admin/profiles/']")):
            driver.get(base + path)
            found = links(selector)
            if found:
                pages[name] = found[0]
        driver.get(base + "/admin/crashes")
        groups = sorted(set(links("main a[href*='/admin/crashes/groups/']")))
        crashes = set(href for href in links("main a[href*='/admin/crashes/']") if re.search(r"/admin/crashes/[0-9]+$", href))
        for index, group in enumerate(groups):
            pages[f"crash-group-{index + 1}"] = group
            driver.get(group)
            crashes.update(href for href in links("main a[href*='/admin/crashes/']") if re.search(r"/admin/crashes/[0-9]+$", href))
        for href in sorted(crashes, key=lambda h: int(h.rsplit("/", 1)[1])):
            pages["crash-" + href.rsplit("/", 1)[1]] = href

        for name, href in pages.items():
            driver.get(href)
            wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, ".admin-main")))
            report["order"].append(name)
            headings = driver.find_elements(By.TAG_NAME, "h1")
            report["pages"][name] = {
                "url": driver.current_url,
                "heading": headings[0].text if headings else "",
                "text": driver.find_element(By.CSS_SELECTOR, ".admin-main").text,
                "empty": [element.text for element in driver.find_elements(By.CSS_SELECTOR, ".admin-main .empty")],
                "scrollWidth": driver.execute_script("return document.documentElement.scrollWidth"),
                "viewportWidth": driver.execute_script("return window.innerWidth"),
                "overflowing": driver.execute_script(OVERFLOWING),
                "stylesheetApplied": driver.execute_script(
                    "return getComputedStyle(document.querySelector('.panel') || document.body).borderRadius !== '0px'"),
            }
            chromium.full_page_screenshot(driver, f"{shots}/{name}.png")
        report["console"] = chromium.console_problems(driver)
        print(json.dumps(report))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
