"""The pure parts of step II's gate training (training/spelling_gate.py): no scikit-learn needed."""
from training.spelling_gate import Example, gated_output, score


def example(token, expected, rule_output, candidates=(), checked=True):
    return Example("first", token, expected, rule_output, checked, {word: "corpus" for word in candidates},
                   [[0.0]] * len(candidates))


def test_the_gated_output_is_the_likeliest_candidate_above_the_threshold_else_the_token():
    checked = example("soilder", "soldier", "solider", ["solider", "soldier"])
    assert gated_output(checked, [0.3, 0.9], 0.7) == "soldier"
    assert gated_output(checked, [0.6, 0.5], 0.7) == "soilder"
    assert gated_output(example("grey", "gray", "gray", checked=False), [], 0.7) == "gray"


def test_training_figures_count_right_actions_and_right_changes():
    examples = [example("vedio", "video", "video"), example("lego", "lego", "loge"), example("chris", "chris", "chris")]
    figures = score(examples, ["video", "loge", "chris"])
    assert figures == {"tokens": 3, "accuracy": 2 / 3, "changes": 2, "precision": 0.5}
