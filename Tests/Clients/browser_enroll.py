#!/usr/bin/env python3
"""Device enrolment end to end in real headless Chromium as an iPhone, with the device's own part
(installing the profile, posting its signed reply) done by script, and prints a JSON report.

Usage: browser_enroll.py TESTER_PAGE WORKDIR DEVICE_CERT DEVICE_KEY UDID

1. Opens the tester page and follows the "Register this device" link of a build the phone cannot
   install; takes enroll.png.
2. Taps "Register this device" and waits for the .mobileconfig download.
3. Reads the downloaded profile with plistlib; signs a reply carrying its challenge with
   `openssl cms -sign -nodetach -outform DER`, and POSTs it to the profile's URL as iOS does.
4. Opens the 301's Location (Safari does this by itself): result.png.
5. Opens the tester page again: tester.png, and the devices it lists.
"""
import json
import os
import plistlib
import subprocess
import sys
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By

import chromium



class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def main():
    page, workdir, certificate, key, udid = sys.argv[1:6]
    downloads = os.path.join(workdir, "downloads")
    os.makedirs(downloads, exist_ok=True)
    driver = chromium.start(iphone=(390, 844, 3.0), prefs={"download.default_directory": downloads,
                                                           "download.prompt_for_download": False,
                                                           "safebrowsing.enabled": False})
    report = {}
    try:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
        driver.get(page)
        links = [e for e in driver.find_elements(By.CSS_SELECTOR, ".why a") if e.is_displayed()]
        report["blockedLinks"] = [e.get_attribute("href") for e in links]
        links[0].click()
        report["enrollURL"] = driver.current_url
        report["enrollTitle"] = driver.find_element(By.TAG_NAME, "h1").text
        report["steps"] = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".enroll-step h2")]
        report["picturesLoaded"] = driver.execute_script(
            "return Array.from(document.querySelectorAll('img.enroll-picture')).every(i => i.complete && i.naturalWidth > 0)")
        report["enrollWidth"] = driver.execute_script("return document.documentElement.scrollWidth")
        report["viewportWidth"] = driver.execute_script("return window.innerWidth")
        chromium.full_page_screenshot(driver, os.path.join(workdir, "enroll.png"))

        driver.find_element(By.ID, "register").click()
        deadline = time.time() + 60
        profile_path = None
        while time.time() < deadline and profile_path is None:
            done = [name for name in os.listdir(downloads) if not name.endswith(".crdownload")]
            if done:
                profile_path = os.path.join(downloads, done[0])
            else:
                time.sleep(0.2)
        report["downloaded"] = os.path.basename(profile_path) if profile_path else None
        with open(profile_path, "rb") as handle:
            profile = plistlib.load(handle)
        content = profile["PayloadContent"]
        report["profileType"] = profile["PayloadType"]
        report["replyURL"] = content["URL"]

        reply = plistlib.dumps({"CHALLENGE": content["Challenge"], "PRODUCT": "iPhone16,1", "SERIAL": "G6TZQ1ABCD12",
                                "UDID": udid, "VERSION": "21B74", "IMEI": "35 398765 432109 8"})
        reply_path = os.path.join(workdir, "reply.plist")
        with open(reply_path, "wb") as handle:
            handle.write(reply)
        signed = subprocess.run(["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", reply_path,
                                 "-signer", certificate, "-inkey", key], check=True, capture_output=True).stdout
        request = urllib.request.Request(content["URL"], data=signed, method="POST",
                                         headers={"Content-Type": "application/pkcs7-signature", "User-Agent": "Profile/1.0"})
        try:
            response = urllib.request.build_opener(NoRedirects()).open(request, timeout=60)
            report["replyStatus"], location = response.status, response.headers.get("Location")
        except urllib.error.HTTPError as error:
            report["replyStatus"], location = error.code, error.headers.get("Location")
        report["location"] = location

        driver.get(location)
        report["resultHeading"] = driver.find_element(By.TAG_NAME, "h1").text
        report["resultMessage"] = driver.find_element(By.CSS_SELECTOR, ".outcome-message").text
        chromium.full_page_screenshot(driver, os.path.join(workdir, "result.png"))

        driver.get(page)
        report["devices"] = [{"name": e.find_element(By.CSS_SELECTOR, ".device-name").text,
                              "status": e.find_element(By.CSS_SELECTOR, ".device-status").text,
                              "classes": e.get_attribute("class")}
                             for e in driver.find_elements(By.CSS_SELECTOR, "li.device")]
        chromium.full_page_screenshot(driver, os.path.join(workdir, "tester.png"))
        report["console"] = chromium.console_problems(driver)
        print(json.dumps(report))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
