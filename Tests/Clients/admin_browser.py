#!/usr/bin/env python3
"""Drives the betactl dashboard in real headless Chromium at phone width (Selenium +
chromium-driver), as a person would, and reports what happened as JSON.

Usage: admin_browser.py BASE TOKEN BUILD DSYM_ZIP SCREENSHOT_DIR

It logs in with TOKEN, adds a tester through the form, uploads BUILD with DSYM_ZIP through the
release form (the page's script sends it with XMLHttpRequest and shows progress), finds the new
release in the list, then posts the add-tester form with its CSRF field removed, and follows the
crash pages' links from the crash groups to a group's reports to one crash. Every dashboard
page is screenshotted (whole page) and checked for horizontal overflow; console errors (a CSP
violation is one) are collected.
"""
import json
import re
import sys

from selenium.webdriver.common.by import By

import chromium
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait



def main():
    base, token, build, dsym, shots = sys.argv[1:6]
    driver = chromium.start(iphone=(390, 844, 2.0))
    wait = WebDriverWait(driver, 600)
    report = {"pages": {}}
    try:
        driver.get(base + "/admin")
        report["loginURL"] = driver.current_url
        driver.find_element(By.ID, "token").send_keys(token)
        driver.find_element(By.CSS_SELECTOR, "#login-form button[type=submit]").click()
        wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, ".admin-nav")))
        report["afterLogin"] = driver.current_url

        # Add a tester.
        driver.get(base + "/admin/testers")
        driver.find_element(By.ID, "tester-name").send_keys("Selenium Sam")
        driver.find_element(By.ID, "tester-email").send_keys("sam@example.com")
        driver.find_element(By.ID, "tester-groups").send_keys("qa")
        driver.find_element(By.CSS_SELECTOR, "#add-tester-form button[type=submit]").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "tester-link")))
        report["testerPage"] = driver.current_url
        report["testerNotice"] = driver.find_element(By.ID, "notice").text
        report["testerLink"] = driver.find_element(By.ID, "tester-link").get_attribute("value")
        report["copyButtonShown"] = driver.find_element(By.CSS_SELECTOR, "#link button.copy").is_displayed()

        # Upload a release through the form; the script reports progress and follows the answer.
        driver.get(base + "/admin/releases")
        # What the progress bar showed, kept in sessionStorage across the page change that follows.
        driver.execute_script("""
            var bar = document.querySelector('#release-form .upload-progress');
            var seen = [];
            new MutationObserver(function () {
                seen.push(bar.hidden ? -1 : Number(bar.value));
                sessionStorage.setItem('progress', JSON.stringify(seen));
            }).observe(bar, {attributes: true, attributeFilter: ['hidden', 'value']});
        """)
        driver.find_element(By.ID, "release-ipa").send_keys(build)
        driver.find_element(By.ID, "release-dsym").send_keys(dsym)  # several files: paths separated by newlines
        driver.find_element(By.ID, "release-notes").send_keys("Uploaded from the dashboard")
        driver.find_element(By.ID, "release-group").send_keys("qa")
        driver.find_element(By.CSS_SELECTOR, "#release-form button[type=submit]").click()
        wait.until(lambda d: "/admin/releases/" in d.current_url or d.find_elements(By.ID, "error"))
        if "/admin/releases/" not in driver.current_url:
            report["uploadError"] = driver.find_element(By.ID, "error").text
            print(json.dumps(report))
            return
        report["releasePage"] = driver.current_url
        report["releaseNotice"] = driver.find_element(By.ID, "notice").text
        report["releaseHeading"] = driver.find_element(By.TAG_NAME, "h1").text
        driver.get(base + "/admin/releases")
        report["listedReleases"] = [row.get_attribute("id") for row in driver.find_elements(By.CSS_SELECTOR, "#release-list tbody tr")]

        # The same form without its CSRF token is refused.
        driver.get(base + "/admin/testers")
        driver.execute_script("document.querySelector('#add-tester-form input[name=csrf]').remove()")
        driver.find_element(By.ID, "tester-name").send_keys("Mallory")
        driver.find_element(By.CSS_SELECTOR, "#add-tester-form button[type=submit]").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "error")))
        report["csrfRefusal"] = driver.find_element(By.ID, "error").text
        driver.get(base + "/admin/testers")
        report["testersAfterRefusal"] = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#testers tbody tr td:first-child")]

        # Crashes: from the groups to a group's reports to one crash's frames, by their links.
        driver.get(base + "/admin/crashes")
        driver.find_element(By.CSS_SELECTOR, "#crash-groups tbody a").click()
        wait.until(lambda d: "/admin/crashes/groups/" in d.current_url)
        report["crashGroupPage"] = driver.current_url
        driver.find_element(By.CSS_SELECTOR, "#crash-group-reports tbody a").click()
        wait.until(lambda d: re.search(r"/admin/crashes/[0-9]+$", d.current_url))
        report["crashPage"] = driver.current_url
        report["crashFunctions"] = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#thread-0 td[data-label=Function]")]
        report["rawLink"] = driver.find_element(By.ID, "raw-link").get_attribute("href")

        # Every page at phone width: nothing wider than the screen, and a screenshot to look at.
        pages = {"overview": "/admin", "testers": "/admin/testers", "tester": report["testerPage"].replace(base, "").split("?")[0],
                 "devices": "/admin/devices", "releases": "/admin/releases",
                 "release": report["releasePage"].replace(base, "").split("?")[0], "profiles": "/admin/profiles",
                 "symbols": "/admin/symbols", "crashes": "/admin/crashes", "webhooks": "/admin/webhooks",
                 "crash-group": report["crashGroupPage"].replace(base, ""), "crash": report["crashPage"].replace(base, "")}
        for name, path in pages.items():
            driver.get(base + path)
            width = driver.execute_script("return window.innerWidth")
            report["pages"][name] = {
                "scrollWidth": driver.execute_script("return document.documentElement.scrollWidth"),
                "viewportWidth": width,
                "stylesheetApplied": driver.execute_script(
                    "return getComputedStyle(document.querySelector('.panel') || document.body).borderRadius !== '0px'"),
            }
            chromium.full_page_screenshot(driver, f"{shots}/{name}.png")
        report["progressValues"] = json.loads(driver.execute_script("return sessionStorage.getItem('progress') || 'null'"))
        report["console"] = chromium.console_problems(driver)
        print(json.dumps(report))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
