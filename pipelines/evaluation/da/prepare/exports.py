"""The HITs of `capclean da prepare` for two crowd platforms.

MTurk (mturk/): template.html, the HTML of a project's Design Layout on the Requester website (which wraps
it in its form and adds the Submit button), and batch.csv, one row per HIT, whose columns are the template's
`${...}` placeholders: hit_id, and hit_data, the HIT's items as base64 of their JSON. MTurk pastes a cell into
the template as plain text; base64 holds no character that could end the script string it lands in, and the
template's script decodes it and puts the captions into the page with textContent, so a caption shows as
text whatever it holds. The worker's scores go into the hidden fields score_1 ... score_N, which MTurk's
results CSV gives as Answer.score_1 ... (`capclean da score` reads it).

Label Studio (labelstudio/): tasks.json, one task per slot whose `data` keys are the variables of
config.xml, the labeling config (the caption in a Text tag, which shows text, never HTML; a 0-100 Number
slider)."""
import base64
import csv
import io
import json
import re
from pathlib import Path

from pipelines.evaluation.da.prepare.rater import QUESTION, RATER_CSS, RATER_MARKUP, RATER_SCRIPT, video_url
from pipelines.output.json_files import write_text_whole

MTURK_COLUMNS = ("hit_id", "hit_data")
PLACEHOLDER = re.compile(r"\$\{(\w+)\}")


def encoded_hit(payload: dict) -> str:
    """A HIT's items (rater.hit_payloads) as one CSV cell: base64 of their UTF-8 JSON."""
    text = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def mturk_batch_csv(payloads: list) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(MTURK_COLUMNS)
    writer.writerows((payload["hit_id"], encoded_hit(payload)) for payload in payloads)
    return out.getvalue()


def mturk_template(slots_per_hit: int) -> str:
    """The Design Layout: the rater, the hidden score fields, and the script that decodes the HIT."""
    fields = "\n".join(f'<input type="hidden" name="score_{slot}" id="score_{slot}" value="">'
                       for slot in range(1, slots_per_hit + 1))
    template = f"""<!-- written by capclean da prepare: an MTurk Design Layout (Requester website) -->
<style>{RATER_CSS}</style>
<div id="da-start">
  <p>You will see {slots_per_hit} short videos, one at a time, each with a caption. Watch the video, then move
  the slider to say how well the caption describes what happens in it, from 0 (not at all) to 100
  (perfectly), and press Next. Submit once every caption is rated.</p>
  <p id="da-problem" role="alert"></p>
</div>
{RATER_MARKUP}
<div id="da-done" hidden><p>Every caption is rated: press Submit.</p></div>
{fields}
<script>{RATER_SCRIPT}
function daStart() {{
  var hitId = "${{hit_id}}";
  var encoded = "${{hit_data}}";
  var bytes = Uint8Array.from(atob(encoded), function (character) {{ return character.charCodeAt(0); }});
  var hit = JSON.parse(new TextDecoder("utf-8").decode(bytes));
  var submit = document.getElementById("submitButton");
  if (hit.hit_id !== hitId) {{
    document.getElementById("da-problem").textContent = "This HIT's data does not match its id.";
    return;
  }}
  if (submit) {{ submit.disabled = true; }}
  daRater(hit, function (slot, score) {{
    document.getElementById("score_" + slot).value = String(score);
  }}, function () {{
    document.getElementById("da-done").hidden = false;
    if (submit) {{ submit.disabled = false; }}
  }});
}}
// MTurk's Submit button comes after the layout: start once the whole page is there.
if (document.readyState === "loading") {{ document.addEventListener("DOMContentLoaded", daStart); }}
else {{ daStart(); }}
</script>
"""
    assert set(PLACEHOLDER.findall(template)) == set(MTURK_COLUMNS), "the template's placeholders are the columns"
    return template


def label_studio_tasks(slots, template: str) -> list:
    return [{"data": {"hit_id": slot.hit_id, "slot": slot.slot, "video_url": video_url(template, slot.video_id),
                      "caption": slot.caption}} for slot in slots]


LABEL_STUDIO_CONFIG = f"""<View>
  <Header value="$hit_id" size="6"/>
  <Header value="$slot" size="6"/>
  <Video name="video" value="$video_url"/>
  <Header value="{QUESTION} 0: not at all, 100: perfectly."/>
  <Text name="caption" value="$caption"/>
  <Number name="score" toName="caption" min="0" max="100" slider="true" required="true"/>
</View>
"""


def write_exports(folder: Path, slots, payloads: list, template: str, slots_per_hit: int) -> None:
    """mturk/ and labelstudio/ under `folder`."""
    files = {"mturk/batch.csv": mturk_batch_csv(payloads), "mturk/template.html": mturk_template(slots_per_hit),
             "labelstudio/tasks.json": json.dumps(label_studio_tasks(slots, template), ensure_ascii=False,
                                                  indent=1) + "\n",
             "labelstudio/config.xml": LABEL_STUDIO_CONFIG}
    for name, text in files.items():
        write_text_whole(folder / name, text)
