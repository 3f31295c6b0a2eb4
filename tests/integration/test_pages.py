"""The gateway's pages in a real browser (Debian's chromium, headless, driven by selenium
through chromedriver) against real processes: the dashboard of 200 finished games draws
every chart with no console error, the replay viewer steps through a game and shows the
right seq, and a seat's page shows that seat's hand and never another's. Screenshots go to
each test's tmp dir (and README's two, with TS_PAGES_SCREENSHOTS=DIR, to DIR: docs/ for README)."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from games import registry
from tests.integration.support_gateway import Deployment, deployment
from tests.support_logs import import_games, wait_rows

__all__ = ["deployment"]

pytestmark = pytest.mark.integration

CHROMIUM = os.environ.get("TS_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("TS_CHROMEDRIVER", "/usr/bin/chromedriver")
WAIT_S = 60
GAMES = 200
README_SHOTS = ("dashboard", "replay")
"""The screenshots README shows (docs/<name>.png)."""
CHARTS = ("per_day", "win_rate", "categories", "total", "length", "victory", "summary", "latency", "h2h")


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    """Headless chromium; fails (never skips) when Debian's chromium or chromedriver is missing."""
    for path in (CHROMIUM, CHROMEDRIVER):
        assert shutil.which(path), f"{path} missing: apt-get install -y chromium chromium-driver (.ci/run does)"
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,1100",
                "--no-first-run", "--disable-extensions", "--disable-background-networking"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(WAIT_S)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def duels(deployment: Deployment) -> list[str]:
    ids = asyncio.run(import_games(deployment.url, [(registry.get("seven_wonders_duel"), GAMES, "2p", 5, "p")],
                                   int(time.time() * 1000)))
    wait_rows(deployment.url, {"seven_wonders_duel": GAMES})
    return ids


def errors(driver: webdriver.Chrome) -> list[dict]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def shot(driver: webdriver.Chrome, tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.png"
    assert driver.save_screenshot(str(path))
    if (out := os.environ.get("TS_PAGES_SCREENSHOTS")) and name in README_SHOTS:
        shutil.copy(path, Path(out) / path.name)
    return path


def ready(driver: webdriver.Chrome) -> None:
    WebDriverWait(driver, WAIT_S).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")


def test_the_dashboard_of_200_games_draws_every_chart_with_no_console_error(deployment: Deployment, duels: list[str],
                                                                            browser: webdriver.Chrome,
                                                                            tmp_path: Path) -> None:
    base = deployment.gateways[0]
    browser.get_log("browser")  # drop what earlier pages logged
    browser.get(f"{base}/dashboard?game_type=seven_wonders_duel")
    ready(browser)
    assert browser.find_element(By.ID, "status").text == f"{GAMES} finished games of seven_wonders_duel"
    for chart in CHARTS:
        el = browser.find_element(By.ID, f"chart-{chart}")
        assert el.get_attribute("data-rendered") == "1", chart
        assert el.find_elements(By.CSS_SELECTOR, "svg.main-svg"), f"{chart} drew no plot"
    days = httpx.get(f"{base}/game-types/seven_wonders_duel/dashboard", timeout=30).json()["per_day"]
    ticks = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "#chart-per_day g.xtick text")]
    assert ticks == [d for d, _ in days]  # each day labelled as itself (a date axis made one day "23:59:59.9996")
    summary = browser.find_element(By.ID, "chart-summary")  # Duel reports no summary numbers: said so
    assert summary.get_attribute("data-empty") == "1" and "No data: this game type reports no summary" in summary.text
    assert browser.find_element(By.ID, "chart-victory").get_attribute("data-empty") == "0"
    bars = browser.find_elements(By.CSS_SELECTOR, "#chart-win_rate g.point")
    assert len(bars) == 7  # the first facet: the players (5 names, 2 bot kinds)
    assert browser.find_elements(By.CSS_SELECTOR, "#chart-h2h g.hm, #chart-h2h image")  # the heatmap is drawn
    assert len(browser.find_elements(By.CSS_SELECTOR, "#ratings tbody tr")) == 7  # 5 names and 2 bot kinds
    link = browser.find_element(By.CSS_SELECTOR, "a[data-csv=win_rate]").get_attribute("href")
    assert link.startswith(f"{base}/game-types/seven_wonders_duel/dashboard/win_rate?") and "format=csv" in link
    assert httpx.get(link, timeout=30).text.startswith("facet,value,games,plays,wins,rate,ci_low,ci_high")
    kinds = [o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#kind option")]
    assert kinds[:2] == ["", "bot"] and "bot:greedy" in kinds and "name" in kinds, kinds  # "bot": every bot kind
    # a filter redraws with fewer games
    day = browser.find_element(By.ID, "until")
    browser.execute_script("arguments[0].value = arguments[1]", day, "2000-01-01")
    browser.find_element(By.CSS_SELECTOR, "#filters button[type=submit]").click()
    WebDriverWait(browser, WAIT_S).until(lambda d: d.find_element(By.ID, "status").text.startswith("0 finished"))
    browser.execute_script("arguments[0].value = ''", day)
    browser.find_element(By.CSS_SELECTOR, "#filters button[type=submit]").click()
    WebDriverWait(browser, WAIT_S).until(lambda d: d.find_element(By.ID, "status").text.startswith(f"{GAMES} finished"))
    shot(browser, tmp_path, "dashboard")
    assert errors(browser) == []
    browser.get(f"{base}/dashboard?game_type=arkadia")  # a game type with no finished game
    ready(browser)
    assert browser.find_element(By.ID, "status").text == "0 finished games of arkadia"
    plural = browser.execute_script("return [0, 1, 2].map(n => finishedText(n, 'arkadia'))")
    assert plural == ["0 finished games of arkadia", "1 finished game of arkadia", "2 finished games of arkadia"]
    assert "No rated games yet" in browser.find_element(By.ID, "ratings").text
    for chart in CHARTS:  # every chart drawn, and saying why it is empty
        el = browser.find_element(By.ID, f"chart-{chart}")
        assert el.get_attribute("data-empty") == "1" and "No data: no finished game matches" in el.text, chart
    assert errors(browser) == []
    scripts = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert all(s.startswith(base) for s in scripts), scripts  # nothing from the network beyond the gateway


def _seq(driver: webdriver.Chrome) -> int:
    return int(driver.find_element(By.ID, "seq").text)


def test_the_replay_viewer_steps_forward_and_back_and_jumps(deployment: Deployment, duels: list[str],
                                                            browser: webdriver.Chrome, tmp_path: Path) -> None:
    base = deployment.gateways[0]
    game = duels[7]
    entries = httpx.get(f"{base}/games/{game}/log", params={"limit": 200}, timeout=30).json()["entries"]
    seqs = [e["seq"] for e in entries]
    browser.get_log("browser")
    browser.get(f"{base}/replay?game={game}")
    ready(browser)
    assert _seq(browser) == seqs[-1]
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    assert _seq(browser) == seqs[0]
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    assert _seq(browser) == seqs[2]
    body.send_keys(Keys.ARROW_LEFT)
    assert _seq(browser) == seqs[1]
    assert browser.find_element(By.ID, "text").text == entries[1]["view"]["text"].strip()
    browser.find_element(By.ID, "next").click()
    assert _seq(browser) == seqs[2]
    browser.find_element(By.ID, "prev").click()
    browser.find_element(By.ID, "prev").click()
    assert _seq(browser) == seqs[0]
    target = seqs[10] - 1 if seqs[10] - 1 > seqs[9] else seqs[10]  # inside command 10's envelopes: its position
    at = browser.find_element(By.ID, "at")
    at.send_keys(str(target))
    at.send_keys(Keys.ENTER)
    assert _seq(browser) == seqs[10]
    current = browser.find_element(By.CSS_SELECTOR, '#log li[aria-current="true"]')
    assert current.get_attribute("data-seq") == str(seqs[10])
    browser.find_element(By.ID, "play").click()
    WebDriverWait(browser, WAIT_S).until(lambda d: _seq(d) > seqs[11])
    browser.find_element(By.ID, "play").click()  # pause
    paused = _seq(browser)
    time.sleep(1.5)
    assert _seq(browser) == paused
    body.send_keys(Keys.HOME)
    body.send_keys(Keys.SPACE)  # the keys play and pause too
    WebDriverWait(browser, WAIT_S).until(lambda d: _seq(d) > seqs[1])
    body.send_keys(Keys.SPACE)
    paused = _seq(browser)
    time.sleep(1.5)
    assert _seq(browser) == paused
    body.send_keys(Keys.END)
    assert _seq(browser) == seqs[-1]
    body.send_keys(Keys.HOME)
    browser.find_element(By.ID, "last").click()
    assert _seq(browser) == seqs[-1]
    WebDriverWait(browser, WAIT_S).until(  # the game's SVG board of that position
        lambda d: d.find_elements(By.CSS_SELECTOR, f'#board img[alt="The board at seq {seqs[-1]}"]'))
    svg = httpx.get(f"{base}/games/{game}/svg", params={"at": seqs[3]}, timeout=30)
    assert svg.headers["content-type"].startswith("image/svg+xml") and svg.text.lstrip().startswith("<svg")
    shot(browser, tmp_path, "replay")
    assert errors(browser) == []


def _hand(text: str) -> list[str]:
    """The cards of a seat's hand as its text render names them ("your hand: A, B, C")."""
    line = next(line for line in text.splitlines() if line.startswith("your hand:"))
    return [c.strip() for c in line.removeprefix("your hand:").split(",")]


def test_a_seats_page_shows_its_hand_and_never_another_seats(deployment: Deployment, browser: webdriver.Chrome,
                                                              tmp_path: Path) -> None:
    """A 3-player 7 Wonders game (each Age I card once): seat 0's page, token typed in, shows
    its hand; no card of seat 1's or 2's hand is anywhere in the page; the token is in no URL
    the page asked for; a move by seat 1 reaches the page over the WebSocket."""
    base = deployment.gateways[0]
    http = httpx.Client(base_url=base, timeout=30)
    opened = http.post("/games", json={"game_type": "seven_wonders", "players": 3}).json()
    game, tokens = opened["game_id"], opened["tokens"]
    docs = [http.get(f"/games/{game}/view", headers={"Authorization": f"Bearer {t}"}).json() for t in tokens]
    hands = [_hand(d["text"]) for d in docs]
    assert all(len(h) == 7 for h in hands) and not set(hands[0]) & (set(hands[1]) | set(hands[2]))
    browser.get_log("browser")
    browser.get(f"{base}/replay")
    browser.find_element(By.ID, "game").send_keys(game)
    browser.find_element(By.ID, "token").send_keys(tokens[0])
    browser.find_element(By.CSS_SELECTOR, "#open button[type=submit]").click()
    ready(browser)
    assert browser.find_element(By.ID, "who").text == "as seat 0"
    text = browser.find_element(By.ID, "text").text
    assert text == docs[0]["text"].strip() and _hand(text) == hands[0]
    before = _seq(browser)
    page = browser.page_source
    for other in (*hands[1], *hands[2]):
        assert other not in page and other.lower().replace(" ", "_") not in page, other
    move = http.get(f"/games/{game}/moves", headers={"Authorization": f"Bearer {tokens[1]}"}).json()["moves"][0]
    res = http.post(f"/games/{game}/commands", json={"command": move["text"]},
                    headers={"Authorization": f"Bearer {tokens[1]}", "Idempotency-Key": "pages-1"})
    assert res.status_code == 200, res.text
    WebDriverWait(browser, WAIT_S).until(lambda d: _seq(d) > before)  # followed live
    after = http.get(f"/games/{game}/log", params={"after": before},
                     headers={"Authorization": f"Bearer {tokens[0]}"}).json()["entries"]
    assert [e["seq"] for e in after] == [_seq(browser)]
    line = browser.find_element(By.CSS_SELECTOR, f'#log li[data-seq="{after[0]["seq"]}"]').text
    assert "seat 1" in line and "card_chosen" in line, line  # the live entry as the log names it
    page = browser.page_source
    for other in (*hands[1], *hands[2]):
        assert other not in page and other.lower().replace(" ", "_") not in page, other
    board = http.get(f"/games/{game}/svg", headers={"Authorization": f"Bearer {tokens[0]}"}).text
    assert all(c in board for c in hands[0]) and not any(c in board for c in (*hands[1], *hands[2]))
    urls = browser.execute_script("return performance.getEntries().map(e => e.name)") + [browser.current_url]
    assert not any(tokens[0] in u for u in urls), urls
    shot(browser, tmp_path, "replay-seat")
    assert errors(browser) == []
