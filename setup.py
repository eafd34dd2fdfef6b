"""capclean: what `pip install .` installs and what Beam's --setup_file ships to remote workers."""
from setuptools import find_packages, setup

setup(
    name="capclean",
    version="0.1.0",
    description="Clean crowd-sourced video-caption datasets (MSR-VTT) into validated Parquet with Apache Beam",
    python_requires=">=3.10",
    # Every package of the runtime; the research code (training, devsets, benchmarks) stays home.
    packages=find_packages(include=["pipelines", "pipelines.*", "transforms", "transforms.*", "schemas",
                                    "schemas.*", "dictionaries", "dictionaries.*"]),
    package_data={
        "pipelines": ["profiles/*.yaml"],
        "transforms.runon": ["*.txt", "model/*"],
        "transforms.spelling": ["gate_model/*"],
        "dictionaries": ["*.txt", "*.dic", "*.aff", "*.md", "msrvtt/*.dic", "msrvtt/*.txt", "msrvtt/*.md"],
        "dictionaries.paper": ["*.txt", "*.md"],
    },
    # Ranges, not pins: a worker image brings its own Beam; `make install` pins via requirements.txt.
    install_requires=[
        "apache-beam>=2.60",
        "hunspell>=0.5.5",
        "codespell>=2.2",  # the default profile reads its list of common misspellings
        "rapidfuzz>=3.0",
        "wordfreq>=3.0",  # step II's compounds rule: how common a word is in English
        "ijson>=3.2",  # the annotation files, parsed as a stream
        "pyarrow>=14",
        "great-expectations>=1.0,<2",
        "pandas>=2.0",
        "numpy>=1.24",
        "PyYAML>=6.0",
        "matplotlib>=3.7",
        # Step IV's trained boundary model (rule `model`) and step II's gate, ONNX files shipped in
        # transforms/runon/model and transforms/spelling/gate_model.
        "onnxruntime>=1.17",
        "onnx>=1.15",  # step IV rewrites its model's graph at load (transforms/runon/per_row_quantization.py)
        "tokenizers>=0.15",
        # The evaluation's antonyms and inflections (transforms/evaluation/lexicon.py); WordNet itself
        # comes from Debian's wordnet-base (make install).
        "nltk>=3.10,<3.11",
        "lemminflect>=0.2.3",
    ],
    # `pip install .[dask]`: the DaskRunner (pipelines/runtime/dask_runner.py) and dask.distributed.
    extras_require={"dask": ["apache-beam[dask]>=2.60"]},
    entry_points={"console_scripts": ["capclean = pipelines.cli:main"]},
)
