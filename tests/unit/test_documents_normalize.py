"""Text normalisation and Chinese sentence splitting (core.documents.normalize)."""

from __future__ import annotations

from core.documents.normalize import (
    compact,
    correct_ocr,
    count_tokens,
    join_lines,
    normalize_text,
    sentence_spans,
    split_sentences,
)


def test_spaces_between_digits_units_and_cjk_are_removed():
    # exactly what pymupdf gives for the 济南 细则 and the 860 notice
    assert normalize_text("2025 年1 月23 日") == "2025年1月23日"
    assert normalize_text("济商务字〔2025〕6 号") == "济商务字〔2025〕6号"
    assert normalize_text("按最终销售价格的15％给予补贴") == "按最终销售价格的15%给予补贴"
    assert normalize_text("每件补贴不超过2000 元") == "每件补贴不超过2000元"
    assert normalize_text("国家发展改革委 财政部关于") == "国家发展改革委财政部关于"


def test_latin_words_keep_their_spaces_and_times_keep_colons():
    assert normalize_text("Department of Commerce") == "Department of Commerce"
    assert normalize_text("工作时间：09:00-23:00") == "工作时间：09:00-23:00"
    assert normalize_text("价格为 7730.28 万元") == "价格为7730.28万元"


def test_punctuation_policy_full_width_in_chinese():
    assert normalize_text("决策精神,按照省委") == "决策精神，按照省委"
    assert normalize_text("3000元(含)至4000元") == "3000元（含）至4000元"
    assert normalize_text("ＡＢＣ１２３") == "ABC123"
    assert normalize_text("a\u00a0b\u3000c") == "a b c"
    assert compact("第 二 条\n补贴 标准") == "第二条补贴标准"


def test_join_lines_rejoins_sentences_broken_at_page_width():
    lines = ["为落实《商务部等4部门办公厅关于〈做好2025年家电以", "旧换新工作〉的通知》等文件要求。",
             "第二条 补贴标准", "1.自愿报名", "参与企业自愿申报；"]
    assert join_lines(lines).split("\n") == [
        "为落实《商务部等4部门办公厅关于〈做好2025年家电以旧换新工作〉的通知》等文件要求。",
        "第二条 补贴标准", "1.自愿报名", "参与企业自愿申报；",
    ]


def test_split_sentences_chinese():
    text = "他说：“好的。”然后走了！行政事业性收费7730.28万元；截至23:59。\n第二行没有句号"
    assert split_sentences(text) == ["他说：“好的。”", "然后走了！", "行政事业性收费7730.28万元；", "截至23:59。", "第二行没有句号"]
    assert split_sentences("") == []
    spans = sentence_spans("甲。乙！")
    assert spans == [(0, 2), (2, 4)]


def test_token_count_counts_cjk_characters():
    assert count_tokens("补贴标准") == 4
    assert count_tokens("济南市2025年 hello") == 6  # 济 南 市 2025 年 hello


def test_ocr_correction_dictionary():
    assert correct_ocr("大规模设备更新和消费品以l日换新") == "大规模设备更新和消费品以旧换新"
    assert correct_ocr("（商办流通函【2025】7号）") == "（商办流通函〔2025〕7号）"
    assert correct_ocr("鲁商字[2025] 1号") == "鲁商字〔2025〕1号"
    # brackets outside a 文号 context are left alone
    assert correct_ocr("【通知公告】") == "【通知公告】"
