"""Screenshots of the dashboard for the README tour, taken in headless Chromium (Debian's
package) with Playwright against `streamlit run app.py` on a demo workspace.

    python -m core.cli demo                       # once, into $ZHICE_HOME (default ./workspace)
    python scripts/take_screenshots.py docs/screenshots
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[1]
USER = "manager_a"


def _screenshot_password() -> str:
    """Demo users have printed one-time passwords; give manager_a a fresh random one through
    core (like an administrator's reset) so the tour can sign in without the first-login change."""
    sys.path.insert(0, str(REPO))
    from core.security.principals import UserStore, random_password

    password = random_password()
    UserStore().set_password(USER, password, must_change_password=False)
    return password


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    password = _screenshot_password()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
                             "--server.address", "127.0.0.1"], cwd=REPO, env=dict(os.environ))
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(180):
            try:
                urllib.request.urlopen(url + "/_stcore/health", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), headless=True, args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"])
            page = browser.new_page(viewport={"width": 1440, "height": 1000})
            page.goto(url, wait_until="networkidle")
            page.get_by_label("用户名").fill(USER)
            page.get_by_label("密码").fill(password)
            page.get_by_role("button", name="登录").click()
            page.get_by_role("heading", name="政策问答").wait_for(timeout=60_000)

            page.get_by_role("textbox").last.fill("济南市家电以旧换新的补贴标准是什么？")
            page.keyboard.press("Enter")
            page.get_by_role("button", name="查看原文").first.wait_for(timeout=180_000)
            page.get_by_role("button", name="查看原文").first.click()
            page.get_by_text("原文").first.wait_for(timeout=60_000)
            time.sleep(3)
            page.screenshot(path=str(out / "policy-qa.png"))

            page.get_by_role("link", name="图谱问答").click()
            page.get_by_role("heading", name="图谱问答").wait_for(timeout=60_000)
            page.get_by_role("textbox").last.fill("3月份加班超过20小时的保安有哪些？")
            page.keyboard.press("Enter")
            page.get_by_text("请确认查询条件").wait_for(timeout=120_000)
            time.sleep(1)
            page.screenshot(path=str(out / "kg-confirm.png"))
            for _ in range(3):  # slots, then plan (and scope if asked)
                buttons = page.get_by_role("button", name="确认")
                if buttons.count() == 0:
                    break
                buttons.first.click()
                time.sleep(4)
            page.get_by_text("蒋文斌").first.wait_for(timeout=120_000)
            time.sleep(2)
            page.screenshot(path=str(out / "kg-answer.png"))
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
