# capclean: `make run` cleans MSR-VTT, `make test` runs the tests; both install what is missing first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Where `make install` puts WordNet for NLTK (transforms/evaluation/lexicon.py's default_wordnet_dir).
WORDNET := $(VENV)/nltk_data/corpora/wordnet
INPUT ?= ../shared/data/msrvtt
OUTPUT ?= out/msrvtt
PROFILE ?= default
# Two SDK worker processes: this machine's two cores. Set WORKERS=1 for in-process.
WORKERS ?= 2
BEAM_ARGS ?= --direct_num_workers=$(WORKERS) --direct_running_mode=multi_processing
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: install system-packages run sweep test test-fast bench bench-scale bench-notebook runon-devset runon-train runon-lexicon spelling-train clean

install: system-packages $(VENV)/.installed $(WORDNET)/lexnames

# Debian's Hunspell library headers (to build pyhunspell) and the en_US dictionary, WordNet 3.0's
# database (wordnet-base) for the evaluation's antonyms, and a headless browser with its driver
# (chromium, chromium-driver) for the tests of `capclean da prepare`'s rating page. No recommended
# packages: wordnet-base's would bring the WordNet browser and Tk.
DEBIAN_PACKAGES := libhunspell-dev hunspell-en-us wordnet-base chromium chromium-driver
system-packages:
	@if ! dpkg -s $(DEBIAN_PACKAGES) >/dev/null 2>&1; then \
		echo "installing Debian packages $(DEBIAN_PACKAGES)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq --no-install-recommends $(DEBIAN_PACKAGES); \
	fi

$(VENV)/.installed: requirements.txt constraints.txt setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -c constraints.txt -r requirements.txt
	$(BIN)/pip install -q --disable-pip-version-check --no-deps -e .
	touch $@

# Debian's WordNet copied where NLTK reads it, with the lexnames file NLTK needs (docs/evaluation/lexicon.md).
# lexnames is written last, so it stands for the whole folder; it goes when the venv goes.
$(WORDNET)/lexnames: pipelines/install/wordnet.py | system-packages $(VENV)/.installed
	$(BIN)/python -m pipelines.install.wordnet --source /usr/share/wordnet \
		--man-page /usr/share/man/man5/lexnames.5WN.gz --target $(WORDNET)

EXPORTS ?= msrvtt-json,coco,hf

run: install
	$(BIN)/capclean clean --input $(INPUT) --output $(OUTPUT) --overwrite --profile $(PROFILE) --export $(EXPORTS) $(BEAM_ARGS)

# Step III over the paper's grid of (e, s), steps I-II computed once.
sweep: install
	$(BIN)/capclean sweep --input $(INPUT) --output $(OUTPUT)-sweep --overwrite --profile $(PROFILE) $(BEAM_ARGS)

test: install
	$(BIN)/python -m pytest -q tests/unit tests/integration

# Unit tests only: no full MSR-VTT runs.
test-fast: install
	$(BIN)/python -m pytest -q -m "not integration" tests

bench: install
	$(BIN)/python benchmarks/bench_pipeline.py --input $(INPUT) $(BEAM_ARGS)
	$(BIN)/python benchmarks/bench_bounded_input.py
	$(BIN)/python benchmarks/bench_hardneg.py --input $(INPUT) $(BEAM_ARGS)
	$(BIN)/python benchmarks/bench_relevance.py --input $(INPUT)
	$(BIN)/python benchmarks/bench_meteor.py --input $(INPUT)
	$(BIN)/python benchmarks/bench_da_score.py
	$(BIN)/python benchmarks/bench_runon_batches.py --input $(INPUT)
	$(BIN)/python benchmarks/bench_spelling_in_context.py --input $(INPUT)
	$(BIN)/python benchmarks/bench_recheck.py --input $(INPUT)
	$(BIN)/python benchmarks/bench_dedup.py --input $(INPUT)

# The default cleaning of synthetic corpora 1 and 10 times MSR-VTT (written to a temporary folder) on the
# FnApiRunner's and on a local Dask cluster's WORKERS worker processes; SCALES=0.2 for a quick trial.
# Then the launcher's finishing phase (validation, report) alone on 10 copies of a clean's tables.
SCALES ?= 1,10
bench-scale: install
	$(BIN)/python benchmarks/bench_scale.py --input $(INPUT) --scales $(SCALES) --workers $(WORKERS)
	$(BIN)/python benchmarks/bench_finish.py --input $(INPUT) --factor 10

# The published notebook's steps II and III, re-implemented in pure Python, on a sample, beside a capclean run.
bench-notebook: install
	$(BIN)/python benchmarks/bench_notebook.py --input $(INPUT) $(BEAM_ARGS)

# Step IV: the boundary model's precision / recall on the run-on dev sets (training figures: it learnt from them).
runon-devset: install
	$(BIN)/python benchmarks/runon_devset.py --input $(INPUT)

# Step IV's boundary model (rule `model`), fine-tuned on the CPU and written to transforms/runon/model
# (~45 min on two free cores; installs PyTorch and transformers first). The default TRAIN_FLAGS are the
# shipped model's recipe: both dev sets, less samples 54-56, on which its settings were chosen and tested
# (docs/steps/runon.md). HOLD_OUT: labelled files kept out of training; TRAIN_FLAGS: options of
# training/boundary_model.py.
HOLD_OUT ?=
TRAIN_FLAGS ?= --over12 --keep-out-sample 54 --keep-out-sample 55 --keep-out-sample 56
runon-train: install
	$(BIN)/pip install -q --disable-pip-version-check -c constraints.txt -r requirements-train.txt
	$(BIN)/python -m training.boundary_model --input $(INPUT) $(foreach f,$(HOLD_OUT),--exclude $(f)) $(TRAIN_FLAGS)

# Step II's learned gate, trained on the spelling dev set and written to transforms/spelling/gate_model
# (about a minute; installs requirements-spelling-train.txt first: scikit-learn, skl2onnx).
# It first prints the leave-one-sample-out figures at several thresholds: the gate on samples it never saw.
spelling-train: install
	$(BIN)/pip install -q --disable-pip-version-check -c constraints.txt -r requirements-spelling-train.txt
	$(BIN)/python -m training.spelling_gate --input $(INPUT) --cross-validate
	$(BIN)/python -m training.spelling_gate --input $(INPUT)

# Step IV's pre-filter word list (finite verbs), rebuilt from spaCy's tags of the train split.
runon-lexicon: install
	$(BIN)/python -m training.runon_lexicon --input $(INPUT)

clean:
	rm -rf out .pytest_cache
