from pathlib import Path

import pytest

from core.config import SETTINGS_SPEC, get_settings, load_settings
from core.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]


def test_defaults_are_offline_and_embedded(workspace):
    s = get_settings()
    assert s.home == workspace.resolve()
    assert not s.llm_enabled and s.graph_backend == "ladybug" and s.app_db_backend == "sqlite"


def test_precedence_passed_in_over_env_over_dotenv(tmp_path, monkeypatch):
    dotenv = tmp_path / "x.env"
    dotenv.write_text("ZHICE_LLM_MODEL=from-dotenv\nZHICE_MAX_UPLOAD_MB=7\n", encoding="utf-8")
    monkeypatch.setenv("ZHICE_LLM_MODEL", "from-env")
    s = load_settings(dotenv_path=dotenv)
    assert s.llm_model == "from-env" and s.max_upload_mb == 7
    # st.secrets style: ZHICE_* names passed in win over the environment
    s = load_settings({"ZHICE_LLM_MODEL": "from-secrets", "ZHICE_LLM_API_KEY": "k"}, dotenv_path=dotenv)
    assert s.llm_model == "from-secrets" and s.llm_enabled


def test_bad_values_name_the_variable():
    with pytest.raises(ConfigError, match="ZHICE_MAX_UPLOAD_MB"):
        load_settings({"max_upload_mb": "lots"})
    with pytest.raises(ConfigError, match="embedded、neo4j"):
        load_settings({"doc_index": "elastic"})
    with pytest.raises(ConfigError, match="ZHICE_GRAPH_BUFFER_MB 至少为 128"):
        load_settings({"ZHICE_GRAPH_BUFFER_MB": "64"})
    with pytest.raises(ConfigError, match="ZHICE_EMBED_PRECISION.*auto、fp32、bf16"):
        load_settings({"ZHICE_EMBED_PRECISION": "int4"})


def test_workspace_created_on_demand(workspace):
    assert not workspace.exists()
    p = get_settings().path("graph", "x.db")
    assert p.parent.is_dir() and p.parent.parent == workspace.resolve()


def test_readme_documents_every_variable():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    missing = [var for _n, var, *_ in SETTINGS_SPEC if var not in readme]
    assert not missing, f"README configuration table lacks {missing}"
