"""The rating page and the MTurk template of `capclean da prepare` in a real browser: headless Chromium driven
by selenium (Debian's chromium and chromium-driver, which `make install` installs). A HIT is rated through the
page's own controls (the slider moved by the keyboard, Next clicked), the CSV the browser downloads is read
back; the MTurk template, with its placeholders replaced as MTurk does (plain text), fills score_<slot>. A
caption holding <script>, quotes, &, a comma, a newline and ${...} shows as that text."""
import csv
import shutil
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipelines.cli import main

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER),
                                reason="needs Debian's chromium and chromium-driver (make install installs them)")

HOSTILE = 'a man says <script>window.pwned = 1</script> "hi" & \'bye\', then\nleaves ${hit_data} ${x}'
SLOTS = 10
VIDEOS = [{"video_id": f"video{7010 + n}", "split": "test", "category": 1} for n in range(8)]
HUMAN = [{"sen_id": 3 * n + k, "video_id": f"video{7010 + n}", "caption": f"a person {n} does thing {k} in a room"}
         for n in range(8) for k in range(3)]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory, write_annotations):
    folder = tmp_path_factory.mktemp("da-browser")
    human = write_annotations(folder / "raw", VIDEOS, HUMAN)
    systems = folder / "systems.csv"
    rows = [(f"video{7010 + n}", "model", HOSTILE if n == 0 else f"someone {n} does something somewhere")
            for n in range(8)]
    with open(systems, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([("video_id", "system", "caption"), *rows])
    out = folder / "out"
    assert main(["da", "prepare", "--input", str(human), "--systems", str(systems), "--output", str(out),
                 "--items-per-hit", str(SLOTS), "--degraded-per-hit", "1", "--repeats-per-hit", "1",
                 "--references-per-hit", "1", "--blocks-per-hit", "2", "--completion-code", "C0DE-42"]) == 0
    return out


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)  # no selenium-manager: offline
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    yield driver
    driver.quit()


def expected_slots(out: Path, hit_id: str) -> list:
    rows = [row for row in pq.read_table(out / "hits").to_pylist() if row["hit_id"] == hit_id]
    return sorted((row["slot"], row["caption"]) for row in rows)


def score_for(slot: int) -> int:
    return (slot * 37) % 101  # 37, 74, 10, ...: low, high and the ends of the scale


def move_slider_to(browser, score: int) -> None:
    """Home (0) then one arrow key right a point, or End (100) then left, as a worker at the keyboard."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    slider = browser.find_element(By.ID, "da-slider")
    keys = Keys.HOME + Keys.ARROW_RIGHT * score if score <= 50 else Keys.END + Keys.ARROW_LEFT * (100 - score)
    ActionChains(browser).click(slider).send_keys(keys).perform()
    assert slider.get_attribute("value") == str(score)


def rate_the_hit(browser, slots: list, score_of=score_for) -> None:
    """Each caption in turn: it shows as text; Next does nothing before the slider moves; then it moves to
    score_of(slot)."""
    from selenium.webdriver.common.by import By

    for number, (slot, caption) in enumerate(slots, 1):
        assert browser.find_element(By.ID, "da-caption").get_property("textContent") == caption
        assert browser.find_element(By.ID, "da-progress").text == f"Caption {number} of {len(slots)}"
        next_button = browser.find_element(By.ID, "da-next")
        assert not next_button.is_enabled()
        browser.execute_script("arguments[0].click();", next_button)  # a click on the disabled button: nothing
        assert browser.find_element(By.ID, "da-progress").text == f"Caption {number} of {len(slots)}"
        move_slider_to(browser, score_of(slot))
        assert next_button.is_enabled()
        next_button.click()


def wait_for_file(folder: Path, name: str) -> Path:
    target = folder / name
    for _ in range(100):
        if target.is_file() and not list(folder.glob("*.crdownload")):
            return target
        time.sleep(0.1)
    raise AssertionError(f"the browser downloaded no {name}: {sorted(p.name for p in folder.iterdir())}")


def test_a_hit_rated_on_the_page_downloads_its_scores(prepared, browser, downloads):
    from selenium.webdriver.common.by import By

    browser.get((prepared / "rating.html").as_uri() + "?PROLIFIC_PID=w%2C%22one%22&hit=hit-0001")
    assert browser.find_element(By.ID, "da-worker").get_attribute("value") == 'w,"one"'
    browser.find_element(By.ID, "da-begin").click()
    slots = expected_slots(prepared, "hit-0001")
    assert len(slots) == SLOTS and HOSTILE in [caption for _, caption in slots]
    rate_the_hit(browser, slots)
    assert browser.find_element(By.ID, "da-code").text == "C0DE-42"
    assert browser.execute_script("return window.pwned === undefined")
    saved = wait_for_file(downloads, "da-hit-0001-w__one_.csv")
    with open(saved, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == ["worker", "hit_id", "slot", "score", "seconds"]
    assert [(row["worker"], row["hit_id"], int(row["slot"]), int(row["score"])) for row in rows] == [
        ('w,"one"', "hit-0001", slot, score_for(slot)) for slot, _ in slots]
    assert all(float(row["seconds"]) >= 0 for row in rows)


def test_a_typed_worker_id_and_a_chosen_hit(prepared, browser, downloads):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get((prepared / "rating.html").as_uri())
    browser.find_element(By.ID, "da-begin").click()
    assert browser.find_element(By.ID, "da-problem").text == "Type your id."
    browser.find_element(By.ID, "da-worker").send_keys("lab-7")
    Select(browser.find_element(By.ID, "da-hit")).select_by_value("hit-0002")
    browser.find_element(By.ID, "da-begin").click()
    rate_the_hit(browser, expected_slots(prepared, "hit-0002"))
    saved = wait_for_file(downloads, "da-hit-0002-lab-7.csv")
    with open(saved, newline="", encoding="utf-8") as handle:
        assert {row["hit_id"] for row in csv.DictReader(handle)} == {"hit-0002"}


def test_the_mturk_template_shows_the_caption_as_text_and_fills_score_fields(prepared, browser, tmp_path):
    from selenium.webdriver.common.by import By

    template = (prepared / "mturk" / "template.html").read_text(encoding="utf-8")
    with open(prepared / "mturk" / "batch.csv", newline="", encoding="utf-8") as handle:
        row = next(csv.DictReader(handle))
    filled = template
    for name, value in row.items():  # MTurk's substitution: plain text
        filled = filled.replace("${" + name + "}", value)
    page = tmp_path / "hit.html"  # as the Requester website serves it: in a form, with its Submit button
    page.write_text(f'<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><form id="mturk_form">'
                    f'{filled}<input type="submit" id="submitButton" value="Submit"></form></body></html>',
                    encoding="utf-8")
    browser.get(page.as_uri())
    fields = browser.find_elements(By.CSS_SELECTOR, "input[type=hidden]")
    assert [field.get_attribute("name") for field in fields] == [f"score_{slot}" for slot in range(1, SLOTS + 1)]
    submit = browser.find_element(By.ID, "submitButton")
    assert not submit.is_enabled()
    slots = expected_slots(prepared, row["hit_id"])
    assert HOSTILE in [caption for _, caption in slots]  # rate_the_hit reads it back as the caption's text
    rate_the_hit(browser, slots)
    assert submit.is_enabled()
    assert browser.execute_script("return window.pwned === undefined")
    values = {field.get_attribute("name"): field.get_attribute("value") for field in fields}
    assert values == {f"score_{slot}": str(score_for(slot)) for slot, _ in slots}


def careful_score(row: dict) -> int:
    """A careful worker's score of a slot of the small study (tests/unit/da/conftest.py): the references best,
    model-a above model-b, every degraded copy far below its original; a few points of spread by slot."""
    if row["kind"] == "degraded":
        return 8 + row["slot"] % 5
    return {"reference": 90, "model-a": 70, "model-b": 45}[row["system"]] + row["slot"] % 5


def test_hits_rated_on_the_page_are_scored_by_da_score(small_study, small_study_hits, hostile_caption, browser,
                                                       downloads, tmp_path, capsys):
    """The round trip: da prepare's rating page, every HIT rated through its controls, the downloaded CSVs
    given to `capclean da score` on the prepared folder; the figures are those worked out from the scores
    typed, and the hostile caption comes back unchanged in da_captions/."""
    from selenium.webdriver.common.by import By

    hit_ids = sorted({row["hit_id"] for row in small_study_hits})
    saved = []
    for hit_id in hit_ids:
        rows = {row["slot"]: row for row in small_study_hits if row["hit_id"] == hit_id}
        browser.get((small_study / "rating.html").as_uri() + f"?worker=lab-1&hit={hit_id}")
        browser.find_element(By.ID, "da-begin").click()
        rate_the_hit(browser, expected_slots(small_study, hit_id), lambda slot: careful_score(rows[slot]))
        assert browser.execute_script("return window.pwned === undefined")
        saved.append(wait_for_file(downloads, f"da-{hit_id}-lab-1.csv"))
    out = tmp_path / "scored"
    assert main(["da", "score", "--hits", str(small_study), "--judgments", *map(str, saved), "--output", str(out),
                 "--bootstrap", "100"]) == 0
    printed = capsys.readouterr().out
    assert "60 judgments by 1 workers; kept 1" in printed

    worker = pq.read_table(out / "da_workers").to_pylist()[0]
    assert (worker["worker"], worker["status"], worker["pairs"], worker["judgments"]) == ("lab-1", "kept", 12, 60)
    captions = {row["item_id"]: row for row in pq.read_table(out / "da_captions").to_pylist()}
    hostile = [row for row in small_study_hits if row["caption"] == hostile_caption and row["kind"] == "system"]
    assert len(hostile) == 1 and captions[hostile[0]["item_id"]]["caption"] == hostile_caption
    assert captions[hostile[0]["item_id"]]["raw_mean"] == careful_score(hostile[0])
    # Each system's raw mean worked from the scores typed: its captions' means, then their mean; check items
    # (degraded copies, repeats) never count.
    typed = {}
    for row in small_study_hits:
        if row["kind"] in ("system", "reference"):
            typed.setdefault(row["system"], {}).setdefault(row["item_id"], []).append(careful_score(row))
    systems = pq.read_table(out / "da_systems").to_pylist()
    assert [row["system"] for row in systems] == ["reference", "model-a", "model-b"]
    for row in systems:
        means = [sum(scores) / len(scores) for scores in typed[row["system"]].values()]
        assert row["captions"] == len(means) and row["raw_mean"] == pytest.approx(sum(means) / len(means))
    assert [row["cluster"] for row in systems] == [1, 2, 3]
