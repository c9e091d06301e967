"""The reviewers' loop in a real browser: a 👎 on 政策问答 → the case in 每周复盘 → a golden case
→ a run of that set on 评测报告 that includes it. Headless Chromium (Debian's package) driven
by Playwright against `streamlit run app.py`; skipped without Chromium."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.e2e.test_dashboard_browser import CHROMIUM, REPO, _free_port, browser  # noqa: F401 - fixture

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed (CI installs it)")]


@pytest.fixture(scope="module")
def server(tmp_path_factory, model_cache):
    home = tmp_path_factory.mktemp("e2e_review") / "workspace"
    env = {**os.environ, "ZHICE_HOME": str(home), "ZHICE_MODEL_CACHE": str(model_cache)}
    env.pop("ZHICE_LLM_API_KEY", None)
    subprocess.run([sys.executable, "-m", "core.cli", "users", "add", "e2e_admin", "--role", "admin",
                    "--password-stdin"], input="e2e-pass-2026\n", text=True, env=env, cwd=REPO, check=True)
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
                             "--server.address", "127.0.0.1", "--server.headless", "true"],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url + "/_stcore/health", timeout=2)
            break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"streamlit exited: {proc.stdout.read()}")
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("streamlit did not become healthy in 90 s")
    yield url, home
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_thumbs_down_to_queue_to_golden_to_run(server, browser, tmp_path):  # noqa: F811
    url, home = server
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(url, wait_until="networkidle")
    page.get_by_label("用户名").fill("e2e_admin")
    page.get_by_label("密码").fill("e2e-pass-2026")
    page.get_by_role("button", name="登录").click()
    page.get_by_role("heading", name="政策问答").wait_for(timeout=60_000)

    # 1. a question nobody can answer from an empty library, then 👎 with a reason
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill("北京市人才引进落户需要满足什么条件？")
    box.press("Enter")
    page.get_by_text("暂未查到").first.wait_for(timeout=180_000)
    page.get_by_role("button", name="👍 / 👎 反馈").click()
    page.get_by_text("👎 没帮助").click()
    page.get_by_label("原因（可选）").fill("应该说明去哪里查")
    page.get_by_role("button", name="提交").click()
    page.get_by_text("感谢反馈").wait_for(timeout=60_000)

    # 2. the case is in this week's queue; it becomes a golden case
    page.get_by_role("link", name="每周复盘").click()
    page.get_by_role("heading", name="每周复盘").wait_for(timeout=60_000)
    page.get_by_text("应该说明去哪里查").first.wait_for(timeout=60_000)
    page.get_by_role("button", name="转为评测用例").click()
    page.get_by_text("已加入评测集").first.wait_for(timeout=60_000)
    assert (home / "eval" / "sets" / "weekly.jsonl").is_file()

    # 3. the next run of that set includes it
    page.get_by_role("link", name="评测报告").click()
    page.get_by_role("heading", name="评测报告").wait_for(timeout=60_000)
    page.get_by_role("button", name="运行评测").click()
    page.get_by_text("逐例结果").wait_for(timeout=180_000)
    page.get_by_text("这次运行的用例全部通过").wait_for(timeout=60_000)
    shots = Path(os.environ.get("ZHICE_E2E_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "review-report.png"), full_page=True)
    assert shutil.disk_usage(shots).free > 0
