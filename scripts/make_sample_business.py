"""Generate the bundled business sample (data/samples/business) and the broken-input set
(data/samples/broken) deterministically (seeded RNG): a property-services company with 16
projects, 34 staff, 2 areas and 2026-01…2026-04 attendance/shifts.

    python scripts/make_sample_business.py [--out data/samples]

Facts the tests and golden questions rely on (keep them when editing):
- 青浦-区图书馆 = XMSQ0102 and 青浦-体育馆 = XMSQ0103, both children of 青浦-文体中心 XMSQ0100;
- renewal chains XMSQ0152 → XMSQ0052 (青浦-北斗园区) and XMSQ0131 → XMSQ0031 (赵巷镇政府):
  same names, new one 服务中, old one 已结束;
- KWL2307024 served 赵巷镇政府 (XMSQ0131) 2026-01~02 and 青浦-北斗园区 (XMSQ0152) 2026-03~04;
- 项目经理 born 1968/1971/1983/1987/1991 → exactly three are under 50 in 2026–2027;
- in 2026-03 exactly three 保安 have 加班小时 > 20; some 旷 days exist;
- XMSQ0125 青浦-夏阳街道社区中心 is 服务中 with no staff at all (project gap).
"""

from __future__ import annotations

import argparse
import calendar
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.graph.schema import TEMPLATE_BY_NAME  # noqa: E402
from core.graph.templates import write_template as _write_template  # noqa: E402

MONTHS = ["2026-01", "2026-02", "2026-03", "2026-04"]

# 编号, 名称, 简称, 上级, 续签前, 开始, 结束, 市区, 细分业态, 汇总业态, 委托方式, 计费方式, 面积, 年化合同额, 状态, 甲方, 负责人工号
PROJECTS = [
    ("XMSQ0100", "青浦-文体中心", "文体中心", None, None, "2024-01-01", "2026-12-31", "青浦区", "公共场馆", "公建", "全委", "包干制", 42000, 2400000, "服务中", "上海市青浦区文化和旅游局", "KWL1801001"),
    ("XMSQ0102", "青浦-区图书馆", "区图书馆", "XMSQ0100", None, "2024-01-01", "2026-12-31", "青浦区", "公共场馆", "公建", "多项单委", "包干制", 18000, 1080000, "服务中", "上海市青浦区图书馆", "KWL1801001"),
    ("XMSQ0103", "青浦-体育馆", "体育馆", "XMSQ0100", None, "2024-03-01", "2026-12-31", "青浦区", "公共场馆", "公建", "多项单委", "包干制", 24000, 1320000, "服务中", "上海市青浦区体育局", "KWL1801001"),
    ("XMSQ0052", "青浦-北斗园区", "北斗园区", None, None, "2023-01-01", "2025-12-31", "青浦区", "产业园区", "园区", "全委", "酬金制", 56000, 1560000, "已结束", "上海北斗产业园管理有限公司", "KWL1905002"),
    ("XMSQ0152", "青浦-北斗园区", "北斗园区", None, "XMSQ0052", "2026-01-01", "2028-12-31", "青浦区", "产业园区", "园区", "全委", "酬金制", 56000, 1680000, "服务中", "上海北斗产业园管理有限公司", "KWL1905002"),
    ("XMSQ0031", "赵巷镇政府", "赵巷镇政府", None, None, "2022-07-01", "2025-06-30", "青浦区", "政府机关", "公建", "全委", "包干制", 15000, 860000, "已结束", "上海市青浦区赵巷镇人民政府", "KWL1905002"),
    ("XMSQ0131", "赵巷镇政府", "赵巷镇政府", None, "XMSQ0031", "2025-07-01", "2027-06-30", "青浦区", "政府机关", "公建", "全委", "包干制", 15000, 920000, "服务中", "上海市青浦区赵巷镇人民政府", "KWL1905002"),
    ("XMSQ0105", "青浦-工业园区", "工业园区", None, None, "2024-05-01", "2027-04-30", "青浦区", "产业园区", "园区", "全委", "酬金制", 88000, 2150000, "服务中", "上海青浦工业园区发展有限公司", "KWL2003003"),
    ("XMSQ0110", "徐汇-环境监测中心", "环境监测中心", None, None, "2025-01-01", "2027-12-31", "徐汇区", "办公楼", "公建", "单一单委", "包干制", 12000, 760000, "服务中", "上海市徐汇区环境监测站", "KWL2106004"),
    ("XMSQ0112", "徐汇-科创大厦", "科创大厦", None, None, "2025-12-01", "2028-11-30", "徐汇区", "办公楼", "商写", "全委", "包干制", 36000, 1950000, "服务中", "上海徐汇科创投资有限公司", "KWL2106004"),
    ("XMSQ0115", "徐汇-区档案馆", "区档案馆", None, None, "2024-09-01", "2026-08-31", "徐汇区", "公共场馆", "公建", "多项单委", "包干制", 9000, 540000, "服务中", "上海市徐汇区档案馆", "KWL2209005"),
    ("XMSQ0118", "青浦-人民医院", "人民医院", None, None, "2025-04-01", "2028-03-31", "青浦区", "医院", "医疗", "全委", "包干制", 64000, 3200000, "服务中", "上海市青浦区人民医院", "KWL2003003"),
    ("XMSQ0120", "徐汇-滨江公园", "滨江公园", None, None, "2025-06-01", "2027-05-31", "徐汇区", "公园", "市政", "单一单委", "包干制", 150000, 1280000, "服务中", "上海市徐汇区绿化和市容管理局", "KWL2209005"),
    ("XMSQ0125", "青浦-夏阳街道社区中心", "夏阳社区中心", None, None, "2026-03-01", "2028-02-29", "青浦区", "社区服务", "公建", "单一单委", "包干制", 6000, 420000, "服务中", "上海市青浦区夏阳街道办事处", "KWL2003003"),
    ("XMSQ0130", "徐汇-文化馆", "文化馆", None, None, "2026-07-01", "2029-06-30", "徐汇区", "公共场馆", "公建", "全委", "包干制", 11000, 690000, "未开始", "上海市徐汇区文化馆", "KWL2209005"),
    ("XMSQ0099", "青浦-老城厢停车场", "老城厢停车场", None, None, "2021-01-01", "2023-12-31", "青浦区", "停车场", "市政", "单一单委", "包干制", 8000, 310000, "已结束", "上海青浦城投停车管理有限公司", "KWL1905002"),
]
STAFFED = ["XMSQ0102", "XMSQ0103", "XMSQ0131", "XMSQ0152", "XMSQ0105", "XMSQ0110", "XMSQ0112", "XMSQ0115",
           "XMSQ0118", "XMSQ0120"]

# 工号, 姓名, 性别, 岗位, 出生日期, 入职日期, 项目(1-4月; None=不在该项目), 职级
STAFF = [
    ("KWL1801001", "周建国", "男", "项目经理", "1968-04-12", "2018-01-08", "XMSQ0102", "M3"),
    ("KWL1905002", "陈慧敏", "女", "项目经理", "1983-09-25", "2019-05-13", "XMSQ0152", "M2"),
    ("KWL2003003", "王志强", "男", "项目经理", "1971-11-03", "2020-03-02", "XMSQ0105", "M3"),
    ("KWL2106004", "李晓峰", "男", "项目经理", "1987-02-17", "2021-06-21", "XMSQ0110", "M2"),
    ("KWL2209005", "张丽娟", "女", "项目经理", "1991-07-30", "2022-09-05", "XMSQ0120", "M1"),
    ("KWL2012006", "刘德明", "男", "保安_领班", "1979-05-06", "2020-12-01", "XMSQ0102", "P3"),
    ("KWL2104007", "孙海涛", "男", "保安_领班", "1982-08-19", "2021-04-12", "XMSQ0105", "P3"),
    ("KWL2201008", "赵永刚", "男", "保安_领班", "1975-01-23", "2022-01-10", "XMSQ0118", "P3"),
    ("KWL2302009", "吴建华", "男", "保安_领班", "1985-10-10", "2023-02-06", "XMSQ0112", "P3"),
    ("KWL2307024", "郑晓东", "男", "保安_普保", "1990-03-15", "2023-07-03", None, "P1"),
    ("KWL2208011", "钱国庆", "男", "保安_普保", "1988-10-01", "2022-08-15", "XMSQ0102", "P1"),
    ("KWL2303012", "冯志远", "男", "保安_普保", "1993-06-08", "2023-03-20", "XMSQ0103", "P1"),
    ("KWL2310013", "蒋文斌", "男", "保安_普保", "1986-12-12", "2023-10-09", "XMSQ0105", "P1"),
    ("KWL2401014", "韩立新", "男", "保安_普保", "1995-04-22", "2024-01-15", "XMSQ0118", "P1"),
    ("KWL2405015", "杨振华", "男", "保安_普保", "1980-09-09", "2024-05-06", "XMSQ0131", "P1"),
    ("KWL2409016", "朱俊杰", "男", "保安_普保", "1997-02-28", "2024-09-02", "XMSQ0152", "P1"),
    ("KWL2502017", "秦家豪", "男", "保安_普保", "1999-11-11", "2025-02-17", "XMSQ0110", "P1"),
    ("KWL2506018", "许建军", "男", "保安_普保", "1978-07-07", "2025-06-09", "XMSQ0120", "P1"),
    ("KWL2602019", "何宇航", "男", "保安_普保", "2000-05-05", "2026-02-02", "XMSQ0112", "P1"),
    ("KWL2105020", "吕秀英", "女", "保洁员", "1972-03-18", "2021-05-10", "XMSQ0102", "P1"),
    ("KWL2108021", "施桂兰", "女", "保洁员", "1970-08-26", "2021-08-16", "XMSQ0103", "P1"),
    ("KWL2203022", "张凤英", "女", "保洁员", "1974-12-02", "2022-03-07", "XMSQ0115", "P1"),
    ("KWL2306023", "孔美玲", "女", "保洁员", "1977-04-14", "2023-06-12", "XMSQ0118", "P1"),
    ("KWL2311025", "曹秀珍", "女", "保洁员", "1973-09-30", "2023-11-06", "XMSQ0152", "P1"),
    ("KWL2404026", "严玉梅", "女", "保洁员", "1976-06-21", "2024-04-08", "XMSQ0120", "P1"),
    ("KWL2010027", "华国栋", "男", "工程维修", "1981-01-19", "2020-10-19", "XMSQ0105", "P2"),
    ("KWL2207028", "金建平", "男", "工程维修", "1984-05-27", "2022-07-04", "XMSQ0110", "P2"),
    ("KWL2312029", "魏大勇", "男", "工程维修", "1989-08-08", "2023-12-04", "XMSQ0118", "P2"),
    ("KWL2503030", "陶明亮", "男", "工程维修", "1992-10-16", "2025-03-03", "XMSQ0112", "P2"),
    ("KWL2209031", "姜雨婷", "女", "客服", "1996-01-09", "2022-09-13", "XMSQ0102", "P1"),
    ("KWL2402032", "戚佳怡", "女", "客服", "1998-03-03", "2024-02-19", "XMSQ0115", "P1"),
    ("KWL2508033", "谢梦瑶", "女", "客服", "2001-12-24", "2025-08-11", "XMSQ0131", "P1"),
    ("KWL1907034", "邹红梅", "女", "财务专员", "1985-04-04", "2019-07-01", None, "P4"),
    ("KWL2005035", "喻志华", "男", "采购专员", "1986-11-20", "2020-05-18", None, "P4"),
]
LEVELS = {"项目经理": "项目管理人员", "保安_领班": "一线员工", "保安_普保": "一线员工", "保洁员": "一线员工",
          "工程维修": "一线员工", "客服": "一线员工", "财务专员": "职能人员", "采购专员": "职能人员"}
FINANCE, BUYER = "KWL1907034", "KWL2005035"
# (工号, 项目) per month where it differs from STAFF's project: moves, joins, leaves, gaps
MONTH_PROJECT = {
    "KWL2307024": {"2026-01": "XMSQ0131", "2026-02": "XMSQ0131", "2026-03": "XMSQ0152", "2026-04": "XMSQ0152"},
    "KWL2602019": {"2026-01": None},                     # joined in February
    "KWL2506018": {"2026-03": None},                     # a gap month: two runs at 滨江公园
    "KWL2404026": {"2026-03": None, "2026-04": None},    # left after February
}
OVERTIME_MARCH = {"KWL2012006": 36.0, "KWL2104007": 28.0, "KWL2310013": 24.0}  # 保安 > 20 h in 2026-03
ABSENT = {("KWL2405015", "2026-02"): 2, ("KWL2208011", "2026-03"): 1, ("KWL2506018", "2026-04"): 3}
BASE_PAY = {"项目经理": 11800, "保安_领班": 6200, "保安_普保": 4800, "保洁员": 4200, "工程维修": 6800, "客服": 5200}
SHIFT_PATTERN = {"保安_领班": "早中夜", "保安_普保": "早中夜", "保洁员": "白", "工程维修": "白白全", "客服": "早晚",
                 "项目经理": "白"}


_FIXED_TIME = "2026-04-30T00:00:00Z"


def reproducible(path: Path) -> Path:
    """Pin the save timestamps inside an .xlsx (core.xml dates, zip entry times) so that
    regenerating the samples gives byte-identical files."""
    import re
    import zipfile

    with zipfile.ZipFile(path) as z:
        items = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in items:
            if name == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(<)",
                              rb"\g<1>" + _FIXED_TIME.encode() + rb"\g<2>", data)
            z.writestr(zipfile.ZipInfo(name, date_time=(2026, 4, 30, 0, 0, 0)), data,
                       compress_type=zipfile.ZIP_DEFLATED)
    return path


def write_template(tpl, path: Path, rows) -> Path:
    return reproducible(_write_template(tpl, path, rows))


def rows_for(name: str, dicts: list[dict]) -> list[list]:
    cols = TEMPLATE_BY_NAME[name].column_names
    return [[d.get(c) for c in cols] for d in dicts]


def month_project(person: tuple, ym: str) -> str | None:
    return MONTH_PROJECT.get(person[0], {}).get(ym, person[6])


def build_data(rng: random.Random) -> dict[str, list[dict]]:
    data: dict[str, list[dict]] = {}
    pname = {p[0]: p[1] for p in PROJECTS}
    data["项目信息"] = [{
        "项目编号": p[0], "项目名称": p[1], "项目简称": p[2], "上级项目编号": p[3], "续签前项目编号": p[4],
        "开始日期": p[5], "结束日期": p[6], "省份": "上海市", "市区": p[7], "细分业态": p[8], "汇总业态": p[9],
        "委托方式": p[10], "计费方式": p[11], "合同面积": p[12],
        "合同金额": round(p[13] * round(((int(p[6][:4]) * 12 + int(p[6][5:7])) - (int(p[5][:4]) * 12 + int(p[5][5:7])) + 1) / 12, 2), 2),
        "年化合同额": p[13], "服务状态": p[14], "甲方名称": p[15], "项目地址": f"上海市{p[7]}{p[2]}路{rng.randint(1, 999)}号",
        "客户满意度": round(rng.uniform(84, 98), 1) if p[14] != "未开始" else None,
        "客户投诉": rng.randint(0, 3) if p[14] != "未开始" else None,
        "实际毛利率": round(rng.uniform(0.08, 0.24), 3) if p[14] != "未开始" else None,
        "项目负责人": next(s[1] for s in STAFF if s[0] == p[16]), "项目负责人工号": p[16], "备注": None,
    } for p in PROJECTS]
    data["人员信息"] = [{
        "姓名": s[1], "工号": s[0], "岗位名称": s[3], "组织名称": "申勤物业" + ("青浦" if (s[6] or "XMSQ0105") in
                                                                       ("XMSQ0102", "XMSQ0103", "XMSQ0131", "XMSQ0152", "XMSQ0105", "XMSQ0118") else "徐汇") + "管理处",
        "当前服务项目编号": month_project(s, "2026-04"), "职级": s[7], "员工层级": None if i % 3 == 0 else LEVELS[s[3]],
        "入职日期": s[5], "离职日期": "2026-02-28" if s[0] == "KWL2404026" else None, "性别": s[2], "出生日期": s[4],
        "政治面貌": rng.choice(["群众", "群众", "中共党员", "共青团员"]), "联系电话": f"139{rng.randint(10000000, 99999999)}",
        "身份证号码": f"3101{rng.randint(10, 99)}{s[4].replace('-', '')}{rng.randint(1000, 9999)}", "备注": None,
    } for i, s in enumerate(STAFF)]
    # direct service periods: managers (open) and the documented move of KWL2307024
    periods = []
    for p in PROJECTS:
        if p[14] == "服务中" and p[0] in STAFFED + ["XMSQ0100"]:
            periods.append({"工号": p[16], "项目编号": p[0], "开始年月": max(p[5][:7], "2024-01"), "结束年月": None,
                            "备注": "项目负责人"})
    periods += [{"工号": "KWL2307024", "项目编号": "XMSQ0131", "开始年月": "2026-01", "结束年月": "2026-02", "备注": "调岗"},
                {"工号": "KWL2307024", "项目编号": "XMSQ0152", "开始年月": "2026-03", "结束年月": None, "备注": "调入"}]
    data["人员服务期"] = periods
    data["片区信息"] = [{"片区编号": "PQ01", "片区名称": "青浦片区", "片区负责人工号": "KWL1801001"},
                    {"片区编号": "PQ02", "片区名称": "徐汇片区", "片区负责人工号": "KWL2106004"}]
    rel = [{"项目编号": p[0], "片区编号": "PQ01" if p[7] == "青浦区" else "PQ02"} for p in PROJECTS]
    rel.append({"项目编号": "XMSQ0112", "片区编号": "PQ01"})  # 科创大厦 is covered by both areas
    data["项目片区关系"] = rel
    fin = []
    for p in PROJECTS:
        if p[14] != "服务中":
            continue
        for ym in MONTHS:
            if ym < p[5][:7]:
                continue
            inv = round(p[13] / 12 * rng.uniform(0.95, 1.05), 2)
            fin.append({"项目编号": p[0], "年月": ym, "开票金额": inv, "收款金额": round(inv * rng.choice([1, 1, 0.9, 0.8]), 2),
                        "口径": "含税", "财务经办人工号": FINANCE})
    data["项目月度财务"] = fin
    att, sch = [], []
    for s in STAFF:
        if s[3] in ("财务专员", "采购专员"):
            continue
        for ym in MONTHS:
            proj = month_project(s, ym)
            if proj is None:
                continue
            y, m = int(ym[:4]), int(ym[5:7])
            ndays = calendar.monthrange(y, m)[1]
            codes, shifts = {}, {}
            pattern = SHIFT_PATTERN[s[3]]
            off = rng.randint(0, 6)
            for d in range(1, ndays + 1):
                rest = (d + off) % 7 in (0, 3)
                codes[d] = "休" if rest else "√"
                shifts[d] = "休" if rest else pattern[(d // 7 + d) % len(pattern)]
            leave_days = rng.sample(range(1, ndays + 1), rng.choice([0, 0, 0, 1, 2]))
            for d in leave_days:
                if codes[d] == "√":
                    codes[d] = rng.choice(["事", "病", "年", "调"])
            for k in range(ABSENT.get((s[0], ym), 0)):
                d = [x for x in range(5, ndays) if codes[x] == "√"][k * 3]
                codes[d] = "旷"
            overtime = OVERTIME_MARCH.get(s[0]) if ym == "2026-03" else None
            if overtime is None:
                overtime = float(rng.choice([0, 0, 4, 8, 12, 16])) if s[3] != "项目经理" else 0.0
            extra = int(overtime // 12)
            for d in [x for x in range(1, ndays + 1) if codes[x] == "休"][:extra]:
                codes[d] = "加"
                shifts[d] = pattern[0]
            worked = sum(1 for c in codes.values() if c in ("√", "加"))
            holiday = 2 if ym in ("2026-01", "2026-02") and s[3].startswith("保安") else 0
            base = BASE_PAY[s[3]]
            rec = {"姓名": s[1], "工号": s[0], "项目编号": proj, "年月": ym, "上班天数": worked, "加班小时": overtime,
                   "餐费": worked * 15.0, "加班超时费": overtime * 22.5, "国定加班费": holiday * base / 21.75 * 3 // 1,
                   "值班费": 200.0 if s[3] in ("保安_领班", "工程维修") else 0.0,
                   "税后工资": round(base * worked / max(worked, 21.75) + overtime * 22.5 - 0.1 * base + rng.uniform(0, 80), 2),
                   "备注": "旷工扣款" if (s[0], ym) in ABSENT else None}
            rec.update({f"{d}日": c for d, c in codes.items()})
            att.append(rec)
            srec = {"姓名": s[1], "工号": s[0], "项目编号": proj, "年月": ym, "备注": None}
            srec.update({f"{d}日": c for d, c in shifts.items()})
            if s[3] != "项目经理":
                sch.append(srec)
    data["考勤与人员财务"] = att
    data["排班月报"] = sch
    data["投标记录"] = [
        {"项目编号": "XMSQ0152", "年份": 2025, "投标类型": "续标", "中标结果": "中标", "中标日期": "2025-11-20", "投标金额": 5040000, "文档路径": "青浦/北斗园区/2026-2028/投标文件.pdf", "投标经办人工号": "KWL1905002"},
        {"项目编号": "XMSQ0131", "年份": 2025, "投标类型": "续标", "中标结果": "中标", "中标日期": "2025-06-10", "投标金额": 1840000, "文档路径": "青浦/赵巷镇政府/2025-2027/投标文件.pdf", "投标经办人工号": "KWL1905002"},
        {"项目编号": "XMSQ0052", "年份": 2022, "投标类型": "新标", "中标结果": "中标", "中标日期": "2022-12-05", "投标金额": 4680000, "文档路径": "青浦/北斗园区/2023-2025/投标文件.pdf", "投标经办人工号": "KWL1905002"},
        {"项目编号": "XMSQ0102", "年份": 2023, "投标类型": "新标", "中标结果": "中标", "中标日期": "2023-12-01", "投标金额": 3240000, "文档路径": "青浦/区图书馆/2024-2026/投标文件.pdf", "投标经办人工号": "KWL1801001"},
        {"项目编号": "XMSQ0103", "年份": 2024, "投标类型": "新标", "中标结果": "中标", "中标日期": "2024-02-02", "投标金额": 3700000, "文档路径": "青浦/体育馆/2024-2026/投标文件.pdf", "投标经办人工号": "KWL1801001"},
        {"项目编号": "XMSQ0112", "年份": 2025, "投标类型": "新标", "中标结果": "中标", "中标日期": "2025-10-28", "投标金额": 5850000, "文档路径": "徐汇/科创大厦/2025-2028/投标文件.pdf", "投标经办人工号": "KWL2106004"},
        {"项目编号": "XMSQ0125", "年份": 2026, "投标类型": "新标", "中标结果": "中标", "中标日期": "2026-01-25", "投标金额": 840000, "文档路径": "青浦/夏阳社区中心/2026-2028/投标文件.pdf", "投标经办人工号": "KWL2003003"},
        {"项目编号": "XMSQ0130", "年份": 2026, "投标类型": "新标", "中标结果": "待定", "中标日期": None, "投标金额": 2070000, "文档路径": "徐汇/文化馆/2026-2029/投标文件.pdf", "投标经办人工号": "KWL2209005"},
        {"项目编号": "XMSQ0099", "年份": 2023, "投标类型": "续标", "中标结果": "未中标", "中标日期": None, "投标金额": 950000, "文档路径": "青浦/老城厢停车场/2024-2026/投标文件.pdf", "投标经办人工号": "KWL1905002"},
        {"项目编号": "XMSQ0118", "年份": 2025, "投标类型": "新标", "中标结果": "中标", "中标日期": "2025-03-08", "投标金额": 9600000, "文档路径": "青浦/人民医院/2025-2028/投标文件.pdf", "投标经办人工号": "KWL2003003"},
    ]
    staffing = []
    on_post: dict[tuple[str, str], int] = {}
    for s in STAFF:
        proj = month_project(s, "2026-04")
        if proj:
            on_post[(proj, s[3])] = on_post.get((proj, s[3]), 0) + 1
    for proj in STAFFED + ["XMSQ0125"]:
        for pos in ("项目经理", "保安_领班", "保安_普保", "保洁员", "工程维修", "客服"):
            n = on_post.get((proj, pos), 0)
            budget = n + (1 if pos in ("保安_普保", "保洁员") else 0) if proj != "XMSQ0125" else \
                {"保安_普保": 2, "保洁员": 2, "项目经理": 1}.get(pos, 0)
            if budget == 0 and n == 0:
                continue
            staffing.append({"项目编号": proj, "岗位": pos, "预算编制": budget, "项目编制": budget, "标准工时人数": max(n, budget - 1),
                             "在岗人数": n})
    data["岗位编制"] = staffing
    equipment = []
    kinds = [("电梯", "客梯", "GeN2-MR 1000kg", "奥的斯", 380000), ("消防", "消防水泵", "XBD8/40", "上海凯泉", 62000),
             ("空调", "空调机组", "30XW-1152", "开利", 540000), ("安防", "监控主机", "DS-9632N", "海康威视", 28000),
             ("电力", "柴油发电机", "C550D5", "康明斯", 420000)]
    for proj, count in (("XMSQ0105", 8), ("XMSQ0110", 6), ("XMSQ0118", 4), ("XMSQ0102", 3)):
        mgr = next(p[16] for p in PROJECTS if p[0] == proj)
        eng = next((s[0] for s in STAFF if s[3] == "工程维修" and s[6] == proj), mgr)
        for i in range(1, count + 1):
            k = kinds[(i - 1) % len(kinds)]
            made = rng.randint(2012, 2022)
            status = "完好"
            if (proj, i) in (("XMSQ0105", 3), ("XMSQ0110", 2)):
                status = "待修"
            if (proj, i) == ("XMSQ0105", 7):
                status = "报废"
            equipment.append({"项目编号": proj, "设备编号": f"SB-{proj[-4:]}-{i:03d}", "设备类型": k[0],
                              "设备名称": f"{(i - 1) // len(kinds) + 1}号{k[1]}", "规格型号": k[2], "制造厂商": k[3],
                              "安装位置": rng.choice(["主楼东侧", "地下一层设备间", "屋顶机房", "北门岗亭", "配电房"]),
                              "出厂日期": f"{made}-{rng.randint(1, 12):02d}-01", "启用日期": f"{made + 1}-03-01",
                              "入项目日期": next(p[5] for p in PROJECTS if p[0] == proj), "退项目日期": None,
                              "完好状况": status, "原值": float(k[4]), "设备责任人工号": eng})
    data["设备信息"] = equipment
    proc = [
        {"记录类型": "供应商", "项目编号": "XMSQ0105", "名称": "上海迅达电梯有限公司", "类别": "电梯", "状态": "合作中", "经办人工号": BUYER},
        {"记录类型": "供应商", "项目编号": "XMSQ0110", "名称": "上海安捷消防工程有限公司", "类别": "消防", "状态": "合作中", "经办人工号": BUYER},
        {"记录类型": "供应商", "项目编号": "XMSQ0118", "名称": "上海洁美清洁用品有限公司", "类别": "保洁耗材", "状态": "合作中", "经办人工号": BUYER},
        {"记录类型": "维保合同", "项目编号": "XMSQ0105", "名称": "电梯年度维保", "供应商名称": "上海迅达电梯有限公司", "类别": "电梯", "合同年限": 1, "金额": 48000, "日期": "2026-01-10", "状态": "执行中", "经办人工号": BUYER},
        {"记录类型": "维保合同", "项目编号": "XMSQ0110", "名称": "消防设施维保", "供应商名称": "上海安捷消防工程有限公司", "类别": "消防", "合同年限": 2, "金额": 36000, "日期": "2025-12-20", "状态": "执行中", "经办人工号": BUYER},
        {"记录类型": "维保合同", "项目编号": "XMSQ0118", "名称": "中央空调维保", "供应商名称": "上海冷暖通设备工程有限公司", "类别": "空调", "合同年限": 1, "金额": 65000, "日期": "2026-02-15", "状态": "执行中", "经办人工号": BUYER},
        {"记录类型": "维保合同", "项目编号": "XMSQ0102", "名称": "电梯年度维保", "供应商名称": "上海迅达电梯有限公司", "类别": "电梯", "合同年限": 1, "金额": 24000, "日期": "2026-01-05", "状态": "执行中", "经办人工号": BUYER},
    ]
    for i, (proj, item, qty, price, ym) in enumerate([
            ("XMSQ0118", "医用级消毒液", 120, 35.5, "2026-01"), ("XMSQ0118", "垃圾袋（大号）", 400, 1.2, "2026-02"),
            ("XMSQ0102", "拖把", 30, 28.0, "2026-01"), ("XMSQ0105", "LED 灯管", 200, 18.5, "2026-03"),
            ("XMSQ0152", "对讲机电池", 24, 65.0, "2026-03"), ("XMSQ0112", "保洁推车", 6, 480.0, "2026-04")]):
        proc.append({"记录类型": "耗材采购", "项目编号": proj, "名称": item, "供应商名称": "上海洁美清洁用品有限公司" if i < 3 else None,
                     "类别": "耗材", "数量": qty, "单价": price, "金额": round(qty * price, 2), "日期": f"{ym}-{8 + i:02d}",
                     "状态": "已到货", "经办人工号": BUYER})
    proc += [
        {"记录类型": "固定资产", "项目编号": "XMSQ0105", "名称": "洗地机", "类别": "保洁设备", "数量": 1, "单价": 26800, "金额": 26800, "日期": "2026-02-20", "状态": "已验收", "经办人工号": BUYER},
        {"记录类型": "固定资产", "项目编号": "XMSQ0110", "名称": "监控硬盘录像机", "类别": "安防设备", "数量": 2, "单价": 5400, "金额": 10800, "日期": "2026-03-12", "状态": "已验收", "经办人工号": BUYER},
    ]
    data["采购与维保"] = proc
    insp = []
    types = ["月度品质检查", "消防安全检查", "客户满意度回访"]
    problems = ["消防通道堆放杂物", "公共区域地面有污渍", "监控存储不足 30 天", "电梯轿厢照明损坏", None, None, None]
    for i, proj in enumerate(STAFFED[:8]):
        for j, ym in enumerate(MONTHS[1:]):
            if (i + j) % 2:
                continue
            prob = rng.choice(problems)
            d = f"{ym}-{rng.randint(10, 25):02d}"
            insp.append({"项目编号": proj, "检查类型": types[(i + j) % len(types)], "检查日期": d,
                         "检查得分": float(rng.randint(78, 98)), "问题描述": prob, "整改情况": "已整改" if prob else None,
                         "整改完成日期": f"{d[:8]}{int(d[8:]) + 3:02d}" if prob else None,
                         "检查人工号": "KWL1801001" if proj in ("XMSQ0102", "XMSQ0103", "XMSQ0131", "XMSQ0152", "XMSQ0105", "XMSQ0118") else "KWL2106004"})
    data["检查记录"] = insp
    certs = []
    for s in STAFF:
        if s[3] == "保安_领班" or s[0] in ("KWL2307024", "KWL2208011"):
            certs.append((s, "保安员（三级）", "安保", "职业资格"))
        if s[3] == "工程维修":
            certs.append((s, "高压电工作业", "电工", "特种作业"))
        if s[3] == "项目经理" and s[0] != "KWL2209005":
            certs.append((s, "物业管理师", "物业管理", "职称"))
        if s[0] in ("KWL2010027", "KWL2012006"):
            certs.append((s, "消防设施操作员（四级）", "消防", "职业资格"))
    data["人员证书"] = [{"工号": s[0], "姓名": s[1], "证书名称": n, "专业类别": m, "证书类别": k} for s, n, m, k in certs]
    data["岗位字典"] = [{"岗位名称": k, "员工层级": v} for k, v in LEVELS.items()]
    assert len(PROJECTS) == 16 and len(STAFF) == 34 and pname
    return data


def write_business(out: Path, data: dict[str, list[dict]]) -> dict[str, list[str]]:
    out.mkdir(parents=True, exist_ok=True)
    config: dict[str, list[str]] = {}
    for name, recs in data.items():
        tpl = TEMPLATE_BY_NAME[name]
        if name == "考勤与人员财务":  # one file per month, as HR sends them
            for ym in MONTHS:
                fname = f"{tpl.file_stem}_{ym}.xlsx"
                write_template(tpl, out / fname, rows_for(name, [r for r in recs if r["年月"] == ym]))
                config.setdefault(name, []).append(fname)
            continue
        if name == "人员信息":  # two files (花名册 split by organisation)
            half = len(recs) // 2
            for suffix, part in (("a", recs[:half]), ("b", recs[half:])):
                fname = f"{tpl.file_stem}_{suffix}.xlsx"
                write_template(tpl, out / fname, rows_for(name, part))
                config.setdefault(name, []).append(fname)
            continue
        fname = f"{tpl.file_stem}.xlsx"
        write_template(tpl, out / fname, rows_for(name, recs))
        config[name] = [fname]
    (out / "config.json").write_text(json.dumps(config, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return config


def write_broken(out: Path, data: dict[str, list[dict]]) -> None:
    """One deliberate fault per file; config.json also lists the good 项目信息/人员信息 files."""
    from openpyxl import load_workbook

    out.mkdir(parents=True, exist_ok=True)
    T = TEMPLATE_BY_NAME
    # 1. 项目信息 without the required column 项目负责人工号 → file rejected
    p = write_template(T["项目信息"], out / "missing_column_项目信息.xlsx", rows_for("项目信息", data["项目信息"][:2]))
    wb = load_workbook(p)
    ws = wb["数据"]
    ws.delete_cols(T["项目信息"].column_names.index("项目负责人工号") + 1)
    wb.save(p)
    reproducible(p)
    # 2. 人员信息 with an unparseable 入职日期 on row 3
    staff = [dict(data["人员信息"][0], 工号="KWL2609901", 姓名="测试甲"),
             dict(data["人员信息"][1], 工号="KWL2609902", 姓名="测试乙", 入职日期="2026-13-45")]
    write_template(T["人员信息"], out / "bad_date_人员信息.xlsx", rows_for("人员信息", staff))
    # 3. 项目信息 with 服务状态 outside the enum on row 2
    proj = [dict(data["项目信息"][0], 项目编号="XMSQ0901", 项目名称="测试-坏枚举", 服务状态="进行中"),
            dict(data["项目信息"][0], 项目编号="XMSQ0902", 项目名称="测试-正常", 上级项目编号=None)]
    write_template(T["项目信息"], out / "bad_enum_项目信息.xlsx", rows_for("项目信息", proj))
    # 4. 人员证书 with an unknown 工号 on row 3 → certificate built, 持有 not, warning
    certs = [{"工号": "KWL2012006", "姓名": "刘德明", "证书名称": "急救员", "专业类别": "安全", "证书类别": "培训证书"},
             {"工号": "KWL9999999", "姓名": "查无此人", "证书名称": "保安员（三级）", "专业类别": "安保", "证书类别": "职业资格"}]
    write_template(T["人员证书"], out / "dangling_工号_人员证书.xlsx", rows_for("人员证书", certs))
    # 5. 岗位字典 whose row 5 repeats row 2's key → later wins, warning names both rows
    dic = list(data["岗位字典"])
    dic.insert(3, {"岗位名称": dic[0]["岗位名称"], "员工层级": "职能人员"})
    write_template(T["岗位字典"], out / "duplicate_key_岗位字典.xlsx", rows_for("岗位字典", dic))
    # 6. not an .xlsx workbook at all
    (out / "not_a_workbook_排班月报.xlsx").write_text("姓名,工号\n张三,KWL0000001\n", encoding="utf-8")
    config = {"项目信息": ["../business/01_项目信息.xlsx", "missing_column_项目信息.xlsx", "bad_enum_项目信息.xlsx"],
              "人员信息": ["../business/02_人员信息_a.xlsx", "../business/02_人员信息_b.xlsx", "bad_date_人员信息.xlsx"],
              "人员证书": ["dangling_工号_人员证书.xlsx"], "岗位字典": ["duplicate_key_岗位字典.xlsx"],
              "排班月报": ["not_a_workbook_排班月报.xlsx"]}
    (out / "config.json").write_text(json.dumps(config, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "samples")
    ap.add_argument("--seed", type=int, default=20260301)
    args = ap.parse_args(argv)
    data = build_data(random.Random(args.seed))
    config = write_business(args.out / "business", data)
    write_broken(args.out / "broken", data)
    print(json.dumps({k: sum(1 for _ in data[k]) for k in config}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
