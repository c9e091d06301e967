"""Fresh blind KG batches 67-69 (twenty-second fresh round, KG only): computes every gold answer with
pandas straight from the sample spreadsheets (data/samples/business/*.xlsx) and writes
kg_batch_{67,68,69}.jsonl next to this file.

Written by a helper session that did not read the engine (core/), its rules (data/rules/), the golden
sets (data/eval/*.jsonl), the tests, docs/, pages/, components/, scripts/score_blind.py, the git log /
history / diffs, any *.json run file of this folder or the old batch files (beyond `head -1
kg_batch_66.jsonl` for the format), and that did not run the engine, the CLI, the dashboard or the
scorer. Read: the file table, record fields, the KG sections (how earlier rounds were written, their
kinds, unanswerables and "Left wrong" notes) of README.md here, the top of the top-level README,
../shared/spec/ (templates, CLI contract), every make_kg_gold*.py script (for the helpers; the questions
they hold were imported and avoided, see `_fresh`) and the 15 spreadsheets (with pandas).

Conventions as in make_kg_gold_batch64_66.py (frames P E S Z ZP F A B T G D C K Q W, `cnt`, `pid`, `NAME`,
`WHO` 工号 -> 姓名, `JOB` 姓名 -> 工号, `M(df, ym)` rows of one 年月, `one(series)` the single index of a
maximum/minimum, asserting there is no tie, `second(series)`, `DT` = pd.to_datetime, `single(seq)` the
only element, `only(series)` the only distinct value, `_in(df, pid)` the rows kept under one 项目编号, and
the constants BAOAN, ZAIZHI, job_ids, CMP, ORG, RATE, LEVEL of the earlier scripts). New here: `GAP` (挂账
of some 项目月度财务 rows), `CUR` / `PROJ_OF` (工号 / 姓名 -> 当前服务项目编号) and `extreme_code(df, codes,
last)`, the (姓名, 年月, day) of the earliest / latest day of 2026 that carries one of ``codes`` over the
rows of ``df``, asserting one person alone carries it that day. The
entry point is make_kg_gold_batch58_60.main(BATCHES) (probe / _check_groups / _verify / _prep / write),
not a copy; `_fresh` runs first and asserts the digit guard and the similarity limit (below). The pandas
expression is kept in each record's "source"; expected null = not in the data. Hand-written golds carry
"check" (`_verify`); two-entity comparisons with a difference (kind 比较) carry "winner, difference",
checked by `_prep`; "which of the two" questions without a difference are kind 人员 / 项目 and carry the
winner only.

Dates: bare months mean 2026. Relative dates are read against the KG run's ZHICE_TODAY=2026-05-01:
今年 = 2026, 上个月 = 2026-04, 这个月 = 2026-05 (nulls kg67-37, kg68-39), 去年 = 2025 (null kg67-40);
入职满三年 = 入职日期 <= 2023-05-01 (kg68-22); 这四个月 / 1到4月 = 2026-01..04. Month golds are written
YYYY-MM and also accept "M月" (make_kg_gold_batch40_42._prep); day golds are written "M月D日" and accept
"2026-MM-DD" / "MM-DD" / "D号" where given.

Definitions a scorer may need:
- 挂账 / 没到账 / 欠着的 / 还差 = 开票金额 − 收款金额 of 项目月度财务 (summed over the months asked); 到账 /
  回款 = 收款金额; 回款率 = 收款 / 开票 over the months asked. 毛利 = 年化合同额 × 实际毛利率 (kg67-08,
  kg67-09); a month's 毛利 = that month's 开票 × 实际毛利率 (kg67-27). 人工 / 到手 = 税后工资 of
  考勤与人员财务, kept under 考勤's own 项目编号 (kg67-16, kg67-17, kg69-16).
- kg67-10 is each 维保合同's 金额 / 合同年限, summed (48000 + 18000 + 65000 + 24000); kg69-12 is the two
  电梯年度维保 (1 year each) / 12. kg67-11 and kg67-32 are over 耗材采购 + 固定资产 rows, kg67-13 over
  耗材采购 only; kg67-12, kg67-23 and kg67-24 add the 维保合同 rows the question names (一季度 = 2026-01..03
  by 日期). kg67-14 is 加班超时费 + 国定加班费 + 值班费 of the 1月 rows; kg67-15 is the 1–4月 餐费 total / 4.
  kg67-31 is the month whose company 开票 rose most over the month before (3月, +32997.32).
- kg68 "X所在 / 在的 / 驻的 / 那个项目" is 人员信息.当前服务项目编号. 请假 = 事 + 病 + 年 + 调 (旷 is absence,
  not leave); kg68-13 一天假都没请 also excludes 旷. kg68-16 and kg68-17 count 排班 codes (夜, 晚). kg68-21
  counts the people whose current project is one of the 徐汇片区 projects of 项目片区关系 (科创大厦 is listed
  under both 片区 and counted). kg68-29 is over the holders of any 人员证书 whose 员工层级 by 岗位字典 is
  一线员工. kg68-30 counts distinct current projects of the 保安员 holders. kg68-32 groups 郑晓东's 考勤
  rows by the project they are kept under (赵巷镇政府 1–2月, 北斗园区 3–4月).
- kg69-02: two rectifications (区图书馆, 赵巷镇政府) were finished on 2026-04-13, the latest date. kg69-10
  divides the 1–4月 开票 total by the 33 在职 people of 人员信息; kg69-11 divides 合同面积 by the summed 在岗人数
  of 岗位编制 (4); kg69-16 is the mean over the 4 人民医院 考勤 rows of 4月; kg69-18: the lowest score (80)
  was given twice, both by 周建国; kg69-24 is leave days (事 病 年 调) of 1–4月 by 组织名称 (青浦 41, 徐汇 5);
  kg69-27 is the 保安 (领班 + 普保) 上班天数 of 4月 (300) × 15 元; kg69-32 counts the people whose current
  project is managed by each 项目负责人 (王志强 8, himself included).

Digit guard (asserted by `_fresh`): neither the gold nor any accept / all_of item holding a digit is
contained in its own question, except the winner a comparison or "which of the two" names (`_GUARD_OK`);
yes/no all_of words (对得上, 没有) may echo the question. Similarity: every
question is compared (difflib SequenceMatcher on the question with punctuation and blanks removed) with
every question of the earlier make_kg_gold*.py scripts and with the other new ones; `_fresh` asserts every
ratio is below 0.75 (highest left: 0.73 to an old question, kg67-18 and kg69-33; 0.65 between two new
ones). Drafts whose gold equalled an old gold for the same fact (recomputed in memory with `--similar`, which prints each new
record's nearest old questions and the old records sharing a gold item) were replaced, among them: 2月
餐费比1月少, 区档案馆4月开票比1月, 北斗园区续签合同金额, 最近一次检查, 谁管的设备最多, 1月开票最多的项目, 哪个月收款最多,
4月收款比3月, 开票最多月比最少月, 消毒液 / 硬盘录像机 / 保洁推车 单价, 3月记“加”的人数, 喻志华的管理处, 文化馆服务状态,
4月到手最少, 2月开票最少, 张丽娟项目满意度, 投标金额最大 → 经办人, 设备原值最高的项目, and the nulls 钱国庆旷工扣款,
紧急联系人, 毕业学校, 证书发证单位, 直属上级, 待修空调故障, 甲方联系人.

Batch 67 is worded like a finance clerk reconciling money (挂账, 到账, 欠着, 花了多少, 开了多少票, 毛利,
回款率, per project and per month, a few differences and ratios); batch 68 like an HR / attendance
supervisor (chains from a person to their current project's client, address, manager, contract, 片区 or
上级项目, from a certificate holder to their project, the earliest / latest of a group, counts of people
with conditions, one person's days of a code in a month); batch 69 like a department head asking short
single questions whose answer is one person, date, project, yes/no or "which of the two", plus two-step
arithmetic (a count times a rate, a total divided by a head count, a difference between two months).
The nulls (33-40 of each batch) look answerable but ask for slots no template fills: a tax amount, an
invoice number, a promised payment date, depreciation, payments made on a contract, invoicing before
2026 (人民医院 since its contract, 科创大厦 去年12月), this month's receipts (kg67); a certificate's expiry,
the reason for a day of leave, a health check, marital status, a referrer, the year a certificate was
obtained, this month's leave, who approved overtime (kg68); a desk phone, who covered an absent guard's
shift, the reason for an absence, a superior of a 片区负责人, why a pump was scrapped, the client's
contact department, who carried out a rectification, the floor of a project office (kg69).

    .venv/bin/python data/eval/blind/make_kg_gold_batch67_69.py              # check and write the three batches
    .venv/bin/python data/eval/blind/make_kg_gold_batch67_69.py --probe      # print every computed value
    .venv/bin/python data/eval/blind/make_kg_gold_batch67_69.py --similar    # nearest old questions, equal old golds
"""
from __future__ import annotations

import contextlib
import difflib
import glob
import importlib
import io
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kg_gold as base  # noqa: E402
import make_kg_gold_batch58_60 as p58  # noqa: E402  (main: probe / check / verify / write; registers second)
import make_kg_gold_batch61_63 as p61  # noqa: E402  (LEVEL, _in)

NONE = "none"  # not answerable from the spreadsheets: expected null
BAOAN = p58.BAOAN  # 保安 = 保安_领班 + 保安_普保
ZAIZHI = p58.ZAIZHI  # 在职 = 离职日期 empty
job_ids = p58.job_ids
CMP = p58.CMP  # (winner, difference) of a two-row series
ORG = p58.ORG  # 工号 -> 组织名称
RATE = p58.RATE  # 回款率 of some 项目月度财务 rows
LEVEL = p61.LEVEL  # 岗位名称 -> 员工层级 (岗位字典)
A1, A2, A3, A4 = p58.A1, p58.A2, p58.A3, p58.A4
B4 = "M(B,'2026-04')"
F1, F2, F3, F4 = "M(F,'2026-01')", "M(F,'2026-02')", p58.F3, p58.F4
_in = p61._in  # the rows of a frame kept under one 项目编号
LEAVE4 = "['事','病','年','调']"  # the leave codes of 考勤
GAP = "(lambda f: f.开票金额.sum()-f.收款金额.sum())"  # 挂账 of some 项目月度财务 rows
CUR = "dict(zip(E.工号,E.当前服务项目编号))"  # 工号 -> 当前服务项目编号
PROJ_OF = "(lambda name: E.loc[E.姓名==name,'当前服务项目编号'].iloc[0])"  # 姓名 -> 当前服务项目编号


def extreme_code(df, codes, last: bool = False):
    """(姓名, 年月, day) of the earliest (or latest) day carrying one of ``codes`` over the rows of ``df``;
    asserts that one person alone carries it that day."""
    hits = [(r["年月"], int(d[:-1]), r["姓名"]) for _, r in df.iterrows() for d in base.DAYS if r[d] in codes]
    key = max if last else min
    best = key((ym, day) for ym, day, _ in hits)
    who = [n for ym, day, n in hits if (ym, day) == best]
    assert len(who) == 1, (best, who)
    return who[0], best[0], f"{best[1]}日"


base.NS.update(extreme_code=extreme_code)

B67 = [
    ("1月份挂账排前两名的项目，加起来挂了多少？", "金额", "F", F1 + ".assign(gap=" + F1 + ".开票金额-" + F1 + ".收款金额).gap.sort_values(ascending=False).pipe(lambda s: s.iloc[:2].sum() if s.iloc[1]>s.iloc[2] else None)  # 科创大厦 32171.80 + 北斗园区 29307.74", "value", {}),
    ("这四个月里，哪个月挂账（开了票没收到的钱）最多？", "日期", "F", "one(F.groupby('年月').apply(" + GAP + "))  # 81294.98, 76534.21, 100062.93, 106748.11", "value", {}),
    ("截至4月底，赵巷镇政府这一期累计还欠着多少票款？", "金额", "F", GAP + "(" + _in("F", "XMSQ0131") + ")", "value", {}),
    ("工业园区和人民医院，这四个月谁挂的账多？多多少？", "比较", "F,P", CMP + "(F.loc[F.项目编号.isin(['XMSQ0105','XMSQ0118'])].groupby(F.项目编号.map(NAME)).apply(" + GAP + "))  # 55146.91 vs 55771.30", "value",
     {"expected": "人民医院挂得多，多624.39元（55771.3对55146.91）", "all_of": ["人民医院", "624.39"]}),
    ("3月份一共有几个项目的款没收齐？", "数量", "F", "(" + F3 + ".收款金额<" + F3 + ".开票金额).sum()", "value", {"accept": ["6个"]}),
    ("全公司到账的钱，4月比1月多了多少？", "金额", "F", F4 + ".收款金额.sum()-" + F1 + ".收款金额.sum()  # 1361038.33 -> 1366798.14", "value", {}),
    ("北斗园区新一期这四个月的回款率是多少？", "比例", "F", RATE + "(" + _in("F", "XMSQ0152") + ")", "value", {"pct": True}),
    ("人民医院跟文体中心，按年化合同额乘毛利率算一年的毛利，谁高？高多少？", "比较", "P", CMP + "(P.loc[P.项目编号.isin(['XMSQ0118','XMSQ0100'])].set_index('项目名称').pipe(lambda d: d.年化合同额*d.实际毛利率))  # 633600 vs 508800", "value",
     {"expected": "人民医院高，一年毛利多124800元（633600对508800）", "all_of": ["人民医院", "124800|12.48万"]}),
    ("工业园区一年下来毛利大概有多少？", "金额", "P", "(lambda r: r.年化合同额*r.实际毛利率)(P.loc[P.项目编号=='XMSQ0105'].iloc[0])  # 2150000 x 0.238", "value", {"accept": ["51.17万"]}),
    ("四份维保合同按年摊下来，一年的维保费一共多少？", "金额", "C", "C.loc[C.记录类型=='维保合同'].pipe(lambda c: (c.金额/c.合同年限).sum())  # 消防设施维保 36000 over 2 years", "value", {"accept": ["15.5万"]}),
    ("一季度买耗材和固定资产一共花了多少钱？", "金额", "C", "C.loc[C.记录类型.isin(['耗材采购','固定资产'])&C.日期.between('2026-01-01','2026-03-31'),'金额'].sum()  # 保洁推车 (4月) left out", "value", {"accept": ["4.844万"]}),
    ("人民医院今年在维保合同和采购上总共花了多少？", "金额", "C", "C.loc[(C.项目编号=='XMSQ0118')&C.记录类型.isin(['维保合同','耗材采购','固定资产']),'金额'].sum()  # 65000 + 4260 + 480", "value", {"accept": ["6.974万"]}),
    ("单价不到30块的那几样耗材，一共花了多少？", "金额", "C", "C.loc[(C.记录类型=='耗材采购')&(C.单价<30),'金额'].sum()  # 垃圾袋 480, LED 灯管 3700, 拖把 840", "value", {"accept": ["5020元"]}),
    ("1月的加班超时费、国定加班费和值班费三项加起来一共发了多少？", "金额", "A", A1 + "[['加班超时费','国定加班费','值班费']].sum().sum()  # 3960 + 18756 + 1600", "value", {}),
    ("这四个月的餐费，平均一个月发多少？", "金额", "A", "A.餐费.sum()/4  # 10305, 9540, 9960, 9915", "value", {"accept": ["9930元"]}),
    ("科创大厦这四个月在人工（员工到手工资）上一共花了多少？", "金额", "A", _in("A", "XMSQ0112") + ".税后工资.sum()", "value", {}),
    ("体育馆4月员工到手工资占它当月开票的百分之几？", "比例", "A,F", _in(A4, "XMSQ0103") + ".税后工资.sum()/" + _in(F4, "XMSQ0103") + ".开票金额.iloc[0]  # 冯志远 + 施桂兰", "value", {"pct": True}),
    ("2月份挂账最多的是哪个项目？挂了多少？", "金额", "F,P", "(lambda f: (lambda s: (NAME[one(s)], s.max()))(f.set_index('项目编号').pipe(lambda d: d.开票金额-d.收款金额)))(" + F2 + ")", "value",
     {"expected": "徐汇-科创大厦，2月挂账32857.59元（开票164287.93，收款131430.34）", "all_of": ["科创大厦|XMSQ0112", "32857.59"], "check": ("徐汇-科创大厦", 32857.59)}),
    ("夏阳社区中心到目前一共开了多少票？", "金额", "F", _in("F", "XMSQ0125") + ".开票金额.sum()  # 3月, 4月 only", "value", {}),
    ("监测中心3月那笔还差多少没到账？", "金额", "F", GAP + "(" + _in(F3, "XMSQ0110") + ")", "value", {}),
    ("4月开票超过10万、钱又没收齐的是哪几个项目？", "列表", "F,P", "[NAME[p] for p in " + F4 + ".loc[(" + F4 + ".开票金额>100000)&(" + F4 + ".收款金额<" + F4 + ".开票金额),'项目编号']]", "all",
     {"all_of": ["工业园区|XMSQ0105", "人民医院|XMSQ0118"]}),
    ("夏阳那个标报的价，跟最后签的合同金额对得上吗？", "是否", "T,P", "bool(T.loc[T.项目编号=='XMSQ0125','投标金额'].iloc[0]==P.loc[P.项目编号=='XMSQ0125','合同金额'].iloc[0])  # 840000 both", "value",
     {"expected": "对得上，投标报价和合同金额都是840000元（84万）", "all_of": ["对得上|一致|相同|一样", "840000|84万"], "check": True}),
    ("监测中心今年维保合同和采购，哪头花的钱多？多多少？", "比较", "C", CMP + "(C.loc[(C.项目编号=='XMSQ0110')&C.记录类型.isin(['维保合同','耗材采购','固定资产'])].groupby('记录类型').金额.sum())  # 消防设施维保 36000 vs 监控硬盘录像机 10800", "value",
     {"expected": "维保合同花得多，多25200元（36000对10800）", "all_of": ["维保合同|维保", "25200|2.52万"]}),
    ("2月份采购和维保加一块儿花出去多少钱？", "金额", "C", "C.loc[C.日期.str.startswith('2026-02',na=False),'金额'].sum()  # 中央空调维保 65000 + 垃圾袋 480 + 洗地机 26800", "value", {"accept": ["9.228万"]}),
    ("1月份从洁美那里进的货，货款一共多少？", "金额", "C", "C.loc[(C.供应商名称=='上海洁美清洁用品有限公司')&C.日期.str.startswith('2026-01',na=False),'金额'].sum()  # 消毒液 4260 + 拖把 840", "value", {"accept": ["5100元"]}),
    ("4月全公司员工到手工资加起来，占当月收回来的钱的百分之几？", "比例", "A,F", A4 + ".税后工资.sum()/" + F4 + ".收款金额.sum()", "value", {"pct": True}),
    ("滨江公园4月的票款按它的毛利率算，毛利大概多少？", "金额", "F,P", _in(F4, "XMSQ0120") + ".开票金额.iloc[0]*P.loc[P.项目编号=='XMSQ0120','实际毛利率'].iloc[0]  # 103988.90 x 0.083", "value", {}),
    ("青浦区的项目4月一共挂了多少账？", "金额", "F,P", GAP + "(" + F4 + ".loc[" + F4 + ".项目编号.map(dict(zip(P.项目编号,P.市区)))=='青浦区'])", "value", {}),
    ("包干制的项目这四个月整体回款率是多少？", "比例", "F,P", RATE + "(F.loc[F.项目编号.map(dict(zip(P.项目编号,P.计费方式)))=='包干制'])", "value", {"pct": True}),
    ("4月跟3月比，全公司挂账多了多少？", "金额", "F", "(lambda s: s['2026-04']-s['2026-03'])(F.groupby('年月').apply(" + GAP + "))  # 100062.93 -> 106748.11", "value", {}),
    ("开票环比涨得最多的是哪个月？", "日期", "F", "one(F.groupby('年月').开票金额.sum().diff().dropna())  # 3月 +32997.32", "value", {}),
    ("没写供应商的那些采购，金额加起来多少？", "金额", "C", "C.loc[C.记录类型.isin(['耗材采购','固定资产'])&C.供应商名称.isna(),'金额'].sum()  # LED 灯管, 对讲机电池, 保洁推车, 洗地机, 监控硬盘录像机", "value", {"accept": ["4.574万"]}),
]
B67 += [
    ("4月开的那些票里，税额一共是多少？", "金额", "F", "None  # 口径 含税 only; no tax amount", NONE, {}),
    ("科创大厦4月那张发票的号码是多少？", "其他", "F", "None  # 项目月度财务 holds monthly totals; no invoice numbers", NONE, {}),
    ("区图书馆4月欠的那笔钱，甲方答应哪天付？", "日期", "F", "None  # no payment promises / due dates", NONE, {}),
    ("洗地机每个月要计提多少折旧？", "金额", "C", "None  # 固定资产 rows hold price and date only; no depreciation", NONE, {}),
    ("这个月到现在一共到账多少钱？", "金额", "F", "None  # 这个月 = 2026-05; 项目月度财务 only 2026-01..04", NONE, {}),
    ("人民医院从签合同到现在，累计一共开了多少票？", "金额", "F,P", "None  # the contract started 2025-04-01; 项目月度财务 holds 2026-01..04 only", NONE, {}),
    ("迅达电梯那两份维保合同，钱已经付出去多少了？", "金额", "C", "None  # 状态 执行中 only; no payments", NONE, {}),
    ("科创大厦刚进场那个月（去年12月）开了多少票？", "金额", "F", "None  # 去年12月 = 2025-12 (the contract started 2025-12-01); 项目月度财务 only 2026-01..04", NONE, {}),
]

B68 = [
    ("戚佳怡现在驻的那个项目，甲方是哪家单位？", "单位", "E,P", "P.loc[P.项目编号==" + PROJ_OF + "('戚佳怡'),'甲方名称'].iloc[0]", "value", {}),
    ("何宇航平时是在哪个地址上班？", "地址", "E,P", "P.loc[P.项目编号==" + PROJ_OF + "('何宇航'),'项目地址'].iloc[0]  # 科创大厦", "value", {}),
    ("陶明亮所在项目的项目经理是什么职级？", "其他", "E,P", "E.loc[E.工号==P.loc[P.项目编号==" + PROJ_OF + "('陶明亮'),'项目负责人工号'].iloc[0],'职级'].iloc[0]  # 科创大厦 -> 李晓峰", "value", {}),
    ("秦家豪驻的那个项目，合同签到什么时候？", "日期", "E,P", "P.loc[P.项目编号==" + PROJ_OF + "('秦家豪'),'结束日期'].iloc[0]  # 环境监测中心", "value", {"accept": ["2027年12月31日"]}),
    ("有物业管理师证的几个人里，哪位是徐汇管理处的？", "人员", "Q,E", "single([WHO[w] for w in Q.loc[Q.证书名称=='物业管理师','工号'] if " + ORG + "[w]=='申勤物业徐汇管理处'])", "value", {}),
    ("有保安员证的人里，4月谁休过年假？", "人员", "Q,A", "single(" + A4 + ".loc[" + A4 + ".工号.isin(Q.loc[Q.证书名称=='保安员（三级）','工号'])&(cnt(" + A4 + ",'年')>0),'姓名'])", "value", {}),
    ("持高压电工证的几位，谁所在项目的客户满意度最高？", "人员", "Q,E,P", "WHO[one(Q.loc[Q.证书名称=='高压电工作业','工号'].pipe(lambda w: pd.Series(w.map(" + CUR + ").map(dict(zip(P.项目编号,P.客户满意度)))).set_axis(w.values)))]  # 魏大勇 人民医院 98", "value", {}),
    ("孔美玲所在的项目今年被检查过没有？", "是否", "E,K", "bool((K.项目编号==" + PROJ_OF + "('孔美玲')).any())  # 人民医院 has no 检查记录", "value",
     {"expected": "没有，检查记录里没有人民医院的检查", "all_of": ["没有|没被|未"], "check": False}),
    ("徐汇管理处的人里，谁进公司最早？", "人员", "E", "WHO[E.loc[one(DT(E.loc[E.组织名称=='申勤物业徐汇管理处','入职日期']), top=False)].工号]", "value", {}),
    ("青浦管理处的客服里，谁最晚进的公司？", "人员", "E", "WHO[E.loc[one(DT(E.loc[(E.组织名称=='申勤物业青浦管理处')&(E.岗位名称=='客服'),'入职日期']))].工号]", "value", {}),
    ("党员里谁是最后一个入职的？", "人员", "E", "WHO[E.loc[one(DT(E.loc[E.政治面貌=='中共党员','入职日期']))].工号]", "value", {}),
    ("80后的保安里谁年纪最大？", "人员", "E", "WHO[E.loc[one(DT(E.loc[" + BAOAN + "&E.出生日期.str.startswith('198'),'出生日期']), top=False)].工号]  # 杨振华 1980-09-09", "value", {}),
    ("4月一天假都没请、也没旷工的保洁员有几个？", "数量", "A,E", "(lambda a: (sum(cnt(a,c) for c in ['事','病','年','调','旷'])==0).sum())(" + A4 + ".loc[" + A4 + ".工号.isin(" + job_ids('保洁员') + ")])  # 施桂兰, 孔美玲", "value", {"accept": ["2个", "两个"]}),
    ("1到4月请过病假的一共有几个人？", "数量", "A", "A.loc[cnt(A,'病')>0,'工号'].nunique()", "value", {"accept": ["9个", "9人"]}),
    ("3月一次都没来加过班的保安有几个？", "数量", "A,E", "(lambda a: (cnt(a,'加')==0).sum())(" + A3 + ".loc[" + A3 + ".工号.isin(E.loc[" + BAOAN + ",'工号'])])  # 赵永刚, 冯志远, 杨振华, 朱俊杰, 秦家豪", "value", {"accept": ["5个", "5人"]}),
    ("孙海涛1到4月的排班里，夜班一共有几个？", "数量", "B", "cnt(B.loc[B.姓名=='孙海涛'],'夜').sum()", "value", {}),
    ("戚佳怡哪个月晚班排得最多？", "日期", "B", "one(B.loc[B.姓名=='戚佳怡'].set_index('年月').pipe(lambda b: cnt(b,'晚')))  # 9, 12, 9, 9", "value", {}),
    ("陈慧敏是从哪个月开始管赵巷镇政府这一期的？", "日期", "S", "S.loc[(S.工号==JOB['陈慧敏'])&(S.项目编号=='XMSQ0131'),'开始年月'].iloc[0]", "value", {"accept": ["2025年7月"]}),
    ("谢梦瑶所在项目的上一期合同是哪天结束的？", "日期", "E,P", "P.loc[P.项目编号==P.loc[P.项目编号==" + PROJ_OF + "('谢梦瑶'),'续签前项目编号'].iloc[0],'结束日期'].iloc[0]  # XMSQ0131 <- XMSQ0031", "value", {"accept": ["2025年6月30日"]}),
    ("姜雨婷所在项目的上级项目叫什么？", "项目", "E,P", "NAME[P.loc[P.项目编号==" + PROJ_OF + "('姜雨婷'),'上级项目编号'].iloc[0]]  # 区图书馆 -> 文体中心", "value", {"all_of": ["文体中心|XMSQ0100"]}),
    ("徐汇片区的项目上现在一共派了几个人？", "数量", "ZP,E", "E.当前服务项目编号.isin(ZP.loc[ZP.片区编号=='PQ02','项目编号']).sum()  # 科创大厦 counted", "value", {"accept": ["10个", "10人"]}),
    ("截至今天，在职的人里入职满三年的有几个？", "数量", "E", "(" + ZAIZHI + "&(E.入职日期<='2023-05-01')).sum()", "value", {"accept": ["19个", "19人"]}),
    ("4月里既来加过班又请过假的是哪几位？", "列表", "A", A4 + ".loc[(cnt(" + A4 + ",'加')>0)&(sum(cnt(" + A4 + ",c) for c in " + LEAVE4 + ")>0),'姓名'].tolist()", "all", {}),
    ("翻考勤看，2026年头一个请事假的是哪位？哪天？", "人员", "A", "extreme_code(A, ['事'])  # 王志强 1月16日", "value",
     {"expected": "王志强，1月16日", "all_of": ["王志强", "1月16日|01-16|16日|16号"], "check": ("王志强", "2026-01", "16日")}),
    ("考勤上最近一次有人旷工是哪天？是谁？", "人员", "A", "extreme_code(A, ['旷'], last=True)", "value",
     {"expected": "许建军，4月16日", "all_of": ["许建军", "4月16日|04-16|16日|16号"], "check": ("许建军", "2026-04", "16日")}),
    ("4月保洁员里谁请的假最多？", "人员", "A,E", "one(" + A4 + ".loc[" + A4 + ".工号.isin(" + job_ids('保洁员') + ")].set_index('姓名').pipe(lambda a: sum(cnt(a,c) for c in " + LEAVE4 + ")))  # 吕秀英 事+病", "value", {}),
    ("保洁员里这四个月谁来加班的次数最多？", "人员", "A,E", "one(A.loc[A.工号.isin(" + job_ids('保洁员') + ")].groupby('姓名').apply(lambda a: cnt(a,'加').sum()))  # 曹秀珍 2", "value", {}),
    ("王志强负责的那几个项目上，现在一共有几个保安？", "数量", "P,E", "(E.当前服务项目编号.isin(P.loc[P.项目负责人=='王志强','项目编号'])&" + BAOAN + ").sum()  # 孙海涛, 蒋文斌, 赵永刚, 韩立新", "value", {"accept": ["4个", "4人"]}),
    ("持证的一线员工里谁年纪最大？", "人员", "Q,E,W", "WHO[E.loc[one(DT(E.loc[E.工号.isin(Q.工号)&(E.岗位名称.map(" + LEVEL + ")=='一线员工'),'出生日期']), top=False)].工号]  # 赵永刚 1975", "value", {}),
    ("有保安员证的这些人，现在分在几个项目上？", "数量", "Q,E", "Q.loc[Q.证书名称=='保安员（三级）','工号'].map(" + CUR + ").nunique()", "value", {"accept": ["5个"]}),
    ("金建平那个项目的保洁员还缺几个没到岗？", "数量", "E,G", "(lambda g: (g.项目编制-g.在岗人数).sum())(G.loc[(G.项目编号==" + PROJ_OF + "('金建平'))&(G.岗位=='保洁员')])  # 监测中心 1 / 0", "value", {"accept": ["1个", "1人"]}),
    ("郑晓东在赵巷镇和北斗园区两段，哪边加班时间长？长多少？", "比较", "A,P", CMP + "(A.loc[A.姓名=='郑晓东'].groupby(A.项目编号.map(NAME)).加班小时.sum())  # 赵巷镇 8 + 16, 北斗园区 12 + 16", "value",
     {"expected": "北斗园区那段长，多4小时（28对24）", "all_of": ["北斗园区", "4"]}),
]
B68 += [
    ("人员证书里，最后一个到期的是谁的证？", "人员", "Q", "None  # 人员证书 holds no issue or expiry dates", NONE, {}),
    ("孔美玲2月请的那天事假是因为什么事？", "其他", "A", "None  # 考勤 keeps the code 事 only; 备注 empty; no reason", NONE, {}),
    ("魏大勇今年的体检做了没有？", "是否", "E", "None  # no health-check records", NONE, {}),
    ("谢梦瑶结婚了没有？", "其他", "E", "None  # 人员信息 holds no marital status", NONE, {}),
    ("何宇航进公司是谁推荐的？", "人员", "E", "None  # no referral records", NONE, {}),
    ("刘德明那本消防证是哪年考下来的？", "日期", "Q", "None  # 人员证书 holds no issue dates", NONE, {}),
    ("这个月到今天为止谁请过假？", "列表", "A", "None  # 这个月 = 2026-05; 考勤 only 2026-01..04", NONE, {}),
    ("朱俊杰4月那几次加班是谁批的？", "人员", "A", "None  # no approver of overtime", NONE, {}),
]

B69 = [
    ("装在屋顶机房的设备里，原值最高的是哪台？", "设备", "D", "D.loc[one(D.loc[D.安装位置=='屋顶机房','原值'])].设备编号  # SB-0118-003 人民医院 1号空调机组 540000", "value", {"all_of": ["SB-0118-003|人民医院"]}),
    ("最后一次整改完成是在哪天？", "日期", "K", "K.整改完成日期.max()  # 区图书馆 and 赵巷镇政府, both 2026-04-13", "value", {"expected": "4月13日", "accept": ["2026-04-13", "04-13", "13号"], "check": "2026-04-13"}),
    ("体育馆有没有登记设备？", "是否", "D", "bool((D.项目编号=='XMSQ0103').any())", "value", {"expected": "没有，设备信息里没有体育馆的设备", "all_of": ["没有|未登记|无"], "check": False}),
    ("老城厢停车场这个项目还在服务吗？", "是否", "P", "(lambda r: (r.服务状态, r.结束日期))(P.loc[P.项目编号=='XMSQ0099'].iloc[0])", "value",
     {"expected": "不在了，已结束（合同到2023-12-31）", "all_of": ["已结束|不在|结束了"], "check": ("已结束", "2023-12-31")}),
    ("何宇航手上有证书吗？", "是否", "Q", "bool((Q.工号==JOB['何宇航']).any())", "value", {"expected": "没有，人员证书里没有何宇航的证书", "all_of": ["没有|无"], "check": False}),
    ("王志强和周建国，谁先进的公司？", "人员", "E", "WHO[E.loc[one(DT(E.loc[E.姓名.isin(['王志强','周建国']),'入职日期']), top=False)].工号]  # 2018-01-08 vs 2020-03-02", "value", {}),
    ("科创大厦和监测中心，哪个客户满意度高？", "项目", "P", "P.loc[one(P.loc[P.项目编号.isin(['XMSQ0112','XMSQ0110']),'客户满意度'])].项目名称  # 94.0 vs 89.1", "value", {"all_of": ["科创大厦|XMSQ0112"]}),
    ("姜雨婷和戚佳怡，4月谁排的晚班多？", "人员", "B", "one(" + B4 + ".loc[" + B4 + ".姓名.isin(['姜雨婷','戚佳怡'])].set_index('姓名').pipe(lambda b: cnt(b,'晚')))  # 4 vs 9", "value", {}),
    ("项目月度财务的经办人是哪个管理处的？", "部门", "F,E", ORG + "[only(F.财务经办人工号)]  # 邹红梅", "value", {"accept": ["青浦管理处"]}),
    ("1到4月开的票，按在职人数平均一人多少？", "金额", "F,E", "F.开票金额.sum()/" + ZAIZHI + ".sum()  # 33 在职", "value", {}),
    ("北斗园区的合同面积平摊到在岗的人头上，一个人管多少平方？", "数量", "P,G", "P.loc[P.项目编号=='XMSQ0152','合同面积'].iloc[0]/G.loc[G.项目编号=='XMSQ0152','在岗人数'].sum()  # 56000 / 4", "value", {"accept": ["1.4万"]}),
    ("电梯年度维保那两份合同，平均每个月一共要付多少？", "金额", "C", "C.loc[C.名称=='电梯年度维保'].pipe(lambda c: (c.金额/(c.合同年限*12)).sum())  # (48000 + 24000) / 12", "value", {"accept": ["6000元"]}),
    ("人民医院的回款，1月和4月差了多少？", "金额", "F", _in(F1, "XMSQ0118") + ".收款金额.iloc[0]-" + _in(F4, "XMSQ0118") + ".收款金额.iloc[0]  # 265821.42 -> 223085.19", "value", {}),
    ("孙海涛3月到手比2月多了多少？", "金额", "A", _in(A3, "XMSQ0105") + ".loc[lambda a: a.姓名=='孙海涛','税后工资'].iloc[0]-" + A2 + ".loc[" + A2 + ".姓名=='孙海涛','税后工资'].iloc[0]  # 5731.59 -> 6284.46", "value", {}),
    ("全公司4月的加班小时比2月少了多少？", "数量", "A", A2 + ".加班小时.sum()-" + A4 + ".加班小时.sum()  # 216 -> 184", "value", {"accept": ["32小时"]}),
    ("人民医院4月的人，平均每人到手多少？", "金额", "A", _in(A4, "XMSQ0118") + ".税后工资.mean()  # 赵永刚, 韩立新, 孔美玲, 魏大勇: 19787.62 / 4", "value", {"accept": ["4946.91"]}),
    ("最早中标的那个标是哪天中的？", "日期", "T", "T.中标日期.dropna().min()  # 北斗园区 XMSQ0052", "value", {"expected": "2022年12月5日", "accept": ["2022-12-05", "2022/12/5"], "check": "2022-12-05"}),
    ("检查分数最低的那两次，都是谁去查的？", "人员", "K,E", "WHO[only(K.loc[K.检查得分==K.检查得分.min(),'检查人工号'])]  # 80: 区图书馆 2月15日, 赵巷镇政府 2月10日", "value", {}),
    ("维保合同里最贵的一单是跟哪家签的？", "单位", "C", "C.loc[one(C.loc[C.记录类型=='维保合同','金额'])].供应商名称  # 中央空调维保 65000", "value", {}),
    ("4月保安里到手最少的是谁？", "人员", "A,E", A4 + ".loc[one(" + A4 + ".loc[" + A4 + ".工号.isin(E.loc[" + BAOAN + ",'工号']),'税后工资'], top=False)].姓名  # 杨振华 4168.55; 秦家豪 4182.52", "value", {}),
    ("赵巷镇政府哪个月挂账最多？", "日期", "F", "one(" + _in("F", "XMSQ0131") + ".set_index('年月').pipe(lambda d: d.开票金额-d.收款金额))  # 2月 7381.15, 3月 15803.06, 4月 14961.49", "value", {}),
    ("北斗园区新一期的客户投诉比上一期少了几次？", "数量", "P", "(lambda r: P.loc[P.项目编号==r.续签前项目编号,'客户投诉'].iloc[0]-r.客户投诉)(P.loc[P.项目编号=='XMSQ0152'].iloc[0])  # 3 -> 1", "value", {"accept": ["2次"]}),
    ("周建国管的三个项目里，哪个合同面积最大？", "项目", "P", "P.loc[one(P.loc[P.项目负责人=='周建国','合同面积'])].项目名称  # 42000", "value", {"all_of": ["文体中心|XMSQ0100"]}),
    ("1到4月两个管理处，哪边请假的天数多？", "部门", "A,E", "one(A.groupby(A.工号.map(" + ORG + ")).apply(lambda a: sum(cnt(a,c) for c in " + LEAVE4 + ").sum()))  # 青浦 41, 徐汇 5", "value", {"accept": ["青浦管理处", "青浦"]}),
    ("没中标的那次是谁经办的？", "人员", "T,E", "WHO[single(T.loc[T.中标结果=='未中标','投标经办人工号'])]  # 老城厢停车场 2023", "value", {}),
    ("科创大厦和人民医院，哪个合同面积大？", "项目", "P", "P.loc[one(P.loc[P.项目编号.isin(['XMSQ0112','XMSQ0118']),'合同面积'])].项目名称  # 64000 vs 36000", "value", {"all_of": ["人民医院|XMSQ0118"]}),
    ("按一天15块算，4月保安的餐费该发多少？", "金额", "A,E", A4 + ".loc[" + A4 + ".工号.isin(E.loc[" + BAOAN + ",'工号']),'上班天数'].sum()*15  # 300 days x 15", "value", {"accept": ["4500元"]}),
    ("垃圾袋照这次的单价再进1000个，要花多少钱？", "金额", "C", "single(C.loc[C.名称=='垃圾袋（大号）','单价'])*1000  # 1.2 x 1000", "value", {"accept": ["1200元"]}),
    ("4月全公司平均每人加了几个小时班？", "数量", "A", A4 + ".加班小时.mean()  # 184 / 31 rows", "value", {"accept": ["5.9", "5.94小时"]}),
    ("北斗园区新一期4月收款比1月多多少？", "金额", "F", _in(F4, "XMSQ0152") + ".收款金额.iloc[0]-" + _in(F1, "XMSQ0152") + ".收款金额.iloc[0]  # 117230.98 -> 141103.71", "value", {}),
    ("这四个月一共有几个人旷过工？", "数量", "A", "A.loc[cnt(A,'旷')>0,'工号'].nunique()  # 杨振华, 钱国庆, 许建军", "value", {"accept": ["3个", "3人"]}),
    ("哪位项目经理手下现在的人最多？", "人员", "E,P", "one(E.当前服务项目编号.dropna().map(dict(zip(P.项目编号,P.项目负责人))).value_counts())  # 王志强 8 (工业园区 4, 人民医院 4)", "value", {}),
]
B69 += [
    ("周建国办公室的座机号是多少？", "电话", "E", "None  # 联系电话 is a mobile number; no office line", NONE, {}),
    ("钱国庆3月5号旷工那天，是谁顶的他的班？", "人员", "A,B", "None  # no substitution records (排班 keeps each person's own codes)", NONE, {}),
    ("杨振华2月那两次旷工是什么原因？", "其他", "A", "None  # 备注 says 旷工扣款; no reason", NONE, {}),
    ("李晓峰上面还有哪位领导管着？", "人员", "E,Z", "None  # 李晓峰 is the 徐汇片区 负责人; no superior is recorded", NONE, {}),
    ("2号消防水泵为什么报废了？", "其他", "D", "None  # 完好状况 报废 carries no reason", NONE, {}),
    ("赵巷镇政府那边负责跟我们对接的是哪个科室？", "部门", "P", "None  # 甲方名称 only; no client department or contact", NONE, {}),
    ("区图书馆地面有污渍那次，整改是谁去落实的？", "人员", "K", "None  # 检查人 is recorded, not who carried out the rectification", NONE, {}),
    ("科创大厦的项目部设在大楼几层？", "地址", "P", "None  # 项目地址 is the street address; no floor or office location", NONE, {}),
]

BATCHES = [(67, B67), (68, B68), (69, B69)]

# Golds a question may contain: the winner a comparison / "which of the two" names.
_GUARD_OK = {
    "工业园区和人民医院，这四个月谁挂的账多？多多少？": {"人民医院"},
    "人民医院跟文体中心，按年化合同额乘毛利率算一年的毛利，谁高？高多少？": {"人民医院"},
    "监测中心今年维保合同和采购，哪头花的钱多？多多少？": {"维保合同", "维保"},
    "郑晓东在赵巷镇和北斗园区两段，哪边加班时间长？长多少？": {"北斗园区"},
    "王志强和周建国，谁先进的公司？": {"周建国"},
    "科创大厦和监测中心，哪个客户满意度高？": {"科创大厦"},
    "姜雨婷和戚佳怡，4月谁排的晚班多？": {"戚佳怡"},
    "科创大厦和人民医院，哪个合同面积大？": {"人民医院"},
    "1到4月两个管理处，哪边请假的天数多？": {"青浦"},
}


def _norm(q: str) -> str:
    return re.sub(r"[\s，。？！、；：,.?!;:（）()“”\"'·—-]", "", q)


def _old_questions() -> dict:
    """Every question held in the earlier make_kg_gold*.py scripts: question -> (module, batch, record)."""
    here = os.path.dirname(os.path.abspath(__file__))
    me = os.path.splitext(os.path.basename(__file__))[0]
    out = {}
    for f in sorted(glob.glob(os.path.join(here, "make_kg_gold*.py"))):
        name = os.path.splitext(os.path.basename(f))[0]
        if name == me:
            continue
        with contextlib.redirect_stdout(io.StringIO()):
            mod = importlib.import_module(name)
        for k, v in vars(mod).items():
            if re.fullmatch(r"B\d+", k) and isinstance(v, list) and v and isinstance(v[0], tuple):
                for t in v:
                    out.setdefault(t[0], (name, k, t))
    return out


def _golds(batch, with_question=False):
    """(question, gold strings) of a batch: the computed gold, or the hand-written expected / accept / all_of."""
    out = []
    for q, kind, frames, expr, how, extra in batch:
        if how == NONE:
            continue
        items = []
        try:
            v = eval(expr.split("  #")[0], base.NS)  # noqa: S307 - our own expressions
        except Exception:  # noqa: BLE001 - old records that no longer evaluate are skipped
            continue
        if "expected" in extra:
            items.append(extra["expected"])
        if how == "value" and not isinstance(v, (tuple, list)):
            items.append(base.fmt(v))
        elif how == "all":
            items += [base.fmt(x) for x in v]
        elif how == "group":
            items += [base.fmt(x) for x in dict(v).values()]
        for a in extra.get("accept", []) + extra.get("all_of", []):
            items += a.split("|")
        out.append((q, [i for i in items if i]))
    return out


def _fresh(batches) -> None:
    """Digit guard (neither the gold nor any accept / all_of item holding a digit inside its own question,
    except the winners of _GUARD_OK) and
    similarity (every question below 0.75 to every old question and to the other new ones)."""
    for q, items in _golds([r for _, b in batches for r in b]):
        ok = _GUARD_OK.get(q, set())
        for n, it in enumerate(items):
            if it in ok or any(it in o or o in it for o in ok):
                continue
            if n == 0 or re.search(r"\d", it):  # the gold itself, and every item holding a digit
                assert it not in q, (q, it)
    old = [_norm(q) for q in _old_questions()]
    new = [_norm(r[0]) for _, b in batches for r in b]
    assert len(set(new)) == len(new), "duplicate new question"
    for i, q in enumerate(new):
        sm = difflib.SequenceMatcher(None, q, "")
        for o in old + new[:i]:
            sm.set_seq2(o)
            if sm.real_quick_ratio() >= 0.75 and sm.quick_ratio() >= 0.75:
                assert sm.ratio() < 0.75, (q, o, sm.ratio())


def similar(batches) -> None:
    """Writer-side report: per new question its three nearest old questions, and the old records whose
    gold items share an item with the new gold (to replace drafts that ask an old fact)."""
    oldq = _old_questions()
    olds = [(_norm(q), q) for q in oldq]
    old_golds = []
    for name, k, t in oldq.values():
        old_golds += [(k, q, set(g)) for q, g in _golds([t])]
    for n, b in batches:
        golds = dict(_golds(b))
        for i, r in enumerate(b, 1):
            q = r[0]
            sm = difflib.SequenceMatcher(None, _norm(q), "")
            near = []
            for o, oq in olds:
                sm.set_seq2(o)
                near.append((round(sm.ratio(), 2), oq))
            near.sort(reverse=True)
            print(f"kg{n}-{i:02d} {q}  near: {near[:3]}")
            mine = {g for g in golds.get(q, []) if len(g) >= 3}
            for k, oq, og in old_golds:
                shared = mine & og
                sm.set_seq2(_norm(oq))
                if shared and (any(re.fullmatch(r"[\d.]+", g) for g in shared) or sm.ratio() >= 0.4):
                    print(f"      same gold {sorted(shared)} as {k}: {oq}")


if __name__ == "__main__":
    if "--similar" in sys.argv:
        similar(BATCHES)
    else:
        if "--probe" not in sys.argv:
            _fresh(BATCHES)
        p58.main(BATCHES)  # --probe prints the computed values; else check, verify and write
