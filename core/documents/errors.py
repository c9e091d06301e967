"""Errors raised while reading a document. Every message is Chinese, names the file and says why."""

from __future__ import annotations

from core.errors import BadInputError, UnsupportedFileError


class DocumentError(BadInputError):
    """Base for every problem with one uploaded document."""

    default_message = "文档无法读取"

    def __init__(self, file_name: str, reason: str, *, detail: str | None = None):
        self.file_name = file_name
        self.reason = reason
        super().__init__(f"文件“{file_name}”{reason}", detail=detail)


class UnsupportedDocumentType(UnsupportedFileError):
    def __init__(self, file_name: str, suffix: str, *, detail: str | None = None):
        self.file_name = file_name
        self.reason = f"类型“{suffix or '无扩展名'}”不受支持"
        super().__init__(
            f"文件“{file_name}”的类型“{suffix or '无扩展名'}”不受支持，仅支持 PDF、Word（.docx）、Markdown（.md）和文本（.txt）文件",
            detail=detail,
        )


class EncryptedDocumentError(DocumentError):
    def __init__(self, file_name: str, *, detail: str | None = None):
        super().__init__(file_name, "已加密（设置了打开密码），请去除密码后重新上传", detail=detail)


class CorruptDocumentError(DocumentError):
    def __init__(self, file_name: str, what: str = "文件", *, detail: str | None = None):
        super().__init__(file_name, f"已损坏或不是有效的{what}，无法打开", detail=detail)


class EmptyDocumentError(DocumentError):
    def __init__(self, file_name: str, why: str = "是空文件（0 字节）", *, detail: str | None = None):
        super().__init__(file_name, why, detail=detail)


class OversizedDocumentError(DocumentError):
    def __init__(self, file_name: str, size: int, limit: int, *, detail: str | None = None):
        super().__init__(
            file_name,
            f"大小为 {size / 1048576:.1f} MB，超过上限 {limit / 1048576:.1f} MB，请拆分或压缩后再上传",
            detail=detail,
        )


class UnreadableTextError(DocumentError):
    """No text could be recovered, not even by OCR (never index an empty document)."""

    def __init__(self, file_name: str, why: str = "没有可识别的文字（扫描件经 OCR 后仍无文字）", *, detail: str | None = None):
        super().__init__(file_name, why, detail=detail)
