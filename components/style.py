"""Page-wide CSS: Streamlit's built-in English texts that have no parameter (the file
uploader's "Upload" button and "… per file" line, text inputs' "Press Enter to submit form")
replaced by Chinese, and hidden component frames."""

from __future__ import annotations

import streamlit as st

from core.config import get_settings


def apply_house_style() -> None:
    mb = int(get_settings().max_upload_mb)
    st.html(f"""<style>
[data-testid="stFileUploaderDropzone"] button {{ font-size: 0 !important; }}
[data-testid="stFileUploaderDropzone"] button * {{ display: none; }}
[data-testid="stFileUploaderDropzone"] button::after {{ content: "选择文件"; font-size: 0.9rem; }}
[data-testid="stFileUploaderDropzoneInstructions"] span {{ display: none; }}
[data-testid="stFileUploaderDropzoneInstructions"] div::after {{ content: "拖放文件到这里，每个文件不超过 {mb} MB";
  font-size: 0.85rem; opacity: 0.7; }}
[data-testid="InputInstructions"] {{ display: none; }}
.stElementContainer:has(iframe[title^="extra_streamlit_components"]),
.element-container:has(iframe[title^="extra_streamlit_components"]) {{ display: none; }}
</style>""")
