"""Fresh blind KG batches 61-63 (twentieth fresh round, KG only): computes every gold answer with
pandas straight from the sample spreadsheets (data/samples/business/*.xlsx) and writes
kg_batch_{61,62,63}.jsonl next to this file. Written by a helper who did not read the engine, its rules,
the golden sets, the tests, docs/, the scorer, the git history or the old batch files (beyond one record
of kg_batch_60.jsonl for the format, and the questions held in every make_kg_gold*.py script, which were
avoided), and who did not run the engine, the CLI, the dashboard or the scorer. Read: the file table,
record fields and KG sections of README.md here, the top of the top-level README, ../shared/spec/
(templates, CLI contract) and the 15 spreadsheets (with pandas).

Same conventions as make_kg_gold_batch58_60.py (frames P E S Z ZP F A B T G D C K Q W, `cnt`, `pid`,
`NAME`, `WHO` 工号 -> 姓名, `JOB` 姓名 -> 工号, `M(df, ym)` rows of one 年月, `one(series)` the single
index of a maximum/minimum, asserting there is no tie, `second(series)` the second place, asserting no
tie at the first three, `DT` = pd.to_datetime, `single(seq)` the only element of a list, `only(series)`
the only distinct value of a column). The pandas expression is kept in each record's "source"; expected
null = not in the data. Bare months mean 2026. Relative dates are read against the KG run's
ZHICE_TODAY=2026-05-01 (今年 = 2026, 上个月 = 2026-04, 去年 = 2025; 还剩几天 counts from 2026-05-01).
Month golds are written YYYY-MM and also accept "M月" (make_kg_gold_batch40_42._prep); two-entity
comparisons (kind 比较) carry a hand-written gold "winner, difference" that `_prep` checks against the
computed pair; writer-side keys "unit", "pct", "pct1" as in make_kg_gold_batch40_42.py and "check" as in
make_kg_gold_batch55_57.py (a hand-written gold must come from this computed value; a list with a
hand-written all_of must name every computed item exactly once), all applied by `_verify` / `_prep` and
dropped before writing. Differences of two percentages are in percentage points; 环比 = this month
against the previous month of the data (2026-01..04). Group answers that ask for a grand total carry it
as a "合计" entry of the computed dict (`TOT`), so `_check_groups` checks the hand-written total too.
考勤 questions about "X那边" use 考勤's own 项目编号 (the project the row is kept under).

Definitions a scorer may need: kg61-18 counts days from 2026-05-01 to 2026-12-31 (244; 245 if both ends
are counted); kg61-24 and kg62-23/24 ask two figures at once; kg62-04 and kg62-25 are over the people
with 考勤 rows (何宇航 from 2月; 许建军 has no 3月 row, so kg62-25 leaves him out); kg62-14 counts
耗材采购 + 固定资产 rows only; kg63-14 groups 检查记录 by the 项目负责人 of the checked project (not by
检查人); kg63-17 counts 徐汇-科创大厦 in both 片区 (项目片区关系 holds it twice); kg63-28 and kg62-27 map
岗位名称 to 员工层级 through 岗位字典 (项目经理 = 项目管理人员). No gold, accept or all_of item is contained
in its own question (digit guard), except the two groups a comparison names (kg63-13 公建). Each question
was compared (difflib, punctuation removed) with the 2,400 questions of the earlier gold scripts and with
the other new ones; drafts at or above 0.75 were reworded, and drafts that asked an old fact in new words
were replaced (highest left: 0.74 to an old question, below 0.7 between two new ones).

Batch 61 is worded like on-site project managers and team leads typing quickly (文体 / 图书馆 / 工业园 /
北斗 / 人医 / 科创 / 档案馆 / 滨江 / 赵巷 for the project names, 上个月, 那俩人, 帮我看看, 歇了几天, 魏师傅),
batch 62 like HR / payroll / finance / purchasing staff (工资, 加班, 请假, 证书, 维保, 开票回款, 投标, 编制 vs
在岗), batch 63 like senior managers (rankings, shares, 环比, comparisons with the difference, totals per
group with a grand total, thresholds 超过 / 不足 / 至少, chains across two or three sheets).

    .venv/bin/python data/eval/blind/make_kg_gold_batch61_63.py            # write the three batches
    .venv/bin/python data/eval/blind/make_kg_gold_batch61_63.py --probe    # print every computed value
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kg_gold as base  # noqa: E402
import make_kg_gold_batch58_60 as p58  # noqa: E402  (the previous round: CMP, POST, ORG, SVC, ... ; registers second)

NONE = "none"  # not answerable from the spreadsheets: expected null
BAOAN = p58.BAOAN  # 保安 = 保安_领班 + 保安_普保
job_ids = p58.job_ids
CMP = p58.CMP  # (winner, difference) of a two-row series
POST = p58.POST  # 工号 -> 岗位名称
ORG = p58.ORG  # 工号 -> 组织名称
LEAVE = p58.LEAVE  # ['事','病','年','调']
SVC = p58.SVC  # (P.服务状态=='服务中')
RATE = p58.RATE  # 回款率 of some 项目月度财务 rows
A1, A2, A3, A4 = p58.A1, p58.A2, p58.A3, p58.A4
B4 = p58.B4
F2, F3, F4 = "M(F,'2026-02')", p58.F3, p58.F4
LEVEL = "dict(zip(W.岗位名称,W.员工层级))"  # 岗位名称 -> 员工层级 (岗位字典)
TOT = "(lambda s: {**s.to_dict(), '合计': s.sum()})"  # a group answer plus its grand total
LEAVE_N = "sum(cnt(A,c) for c in " + LEAVE + ")"  # leave days per 考勤 row (事+病+年+调)
A_Q1 = "pd.concat([" + A1 + "," + A2 + "," + A3 + "])"  # 一季度 考勤 rows (written without 年月, which _prep reads as a per-month group)


def _in(df: str, pid: str) -> str:
    """Expression: the rows of ``df`` kept under project ``pid``."""
    return f"{df}.loc[{df}.项目编号=='{pid}']"


B61 = [
    ("帮我看看科创那边上个月13号夜班是哪俩人？", "列表", "B", B4 + ".loc[(" + B4 + ".项目编号=='XMSQ0112')&(" + B4 + "['13日']=='夜'),'姓名'].tolist()", "all", {}),
    ("工业园上个月2号谁来加的班？", "列表", "A", A4 + ".loc[(" + A4 + ".项目编号=='XMSQ0105')&(" + A4 + "['2日']=='加'),'姓名'].tolist()  # 孙海涛, 蒋文斌", "all", {}),
    ("北斗的郑晓东上个月25号没来，考勤上记的是啥？", "类别", "A", A4 + ".loc[" + A4 + ".姓名=='郑晓东','25日'].iloc[0]  # 年 = 年假", "value",
     {"expected": "年假（考勤记“年”）", "all_of": ["年假"], "check": "年"}),
    ("图书馆钱国庆上个月10号排的什么班？", "其他", "B", B4 + ".loc[" + B4 + ".姓名=='钱国庆','10日'].iloc[0]", "value",
     {"expected": "夜班", "all_of": ["夜班|夜"], "check": "夜"}),
    ("滨江那边许建军上个月排了几个中班？", "数量", "B", "cnt(" + B4 + ".loc[" + B4 + ".姓名=='许建军'],'中').iloc[0]", "value", {"accept": ["8个"]}),
    ("档案馆那个客服4月排了几个晚班？", "数量", "B,E", "cnt(" + B4 + ".loc[" + B4 + ".工号==single(E.loc[(E.当前服务项目编号=='XMSQ0115')&(E.岗位名称=='客服'),'工号'])],'晚').iloc[0]  # 戚佳怡", "value", {"accept": ["9个"]}),
    ("体育馆那俩人3月加班时长比一比，谁多、多几小时？", "比较", "A", CMP + "(" + _in(A3, "XMSQ0103") + ".set_index('姓名').加班小时)  # 冯志远 8, 施桂兰 4", "value",
     {"expected": "冯志远多，多4小时（8对4）", "all_of": ["冯志远", "4"]}),
    ("监测中心秦家豪上个月歇了几天？", "数量", "A", "cnt(" + A4 + ".loc[" + A4 + ".姓名=='秦家豪'],'休').iloc[0]  # 排班 休 is 9 too", "value", {"accept": ["9天"]}),
    ("图书馆刘德明跟钱国庆上个月有几天是一块儿上夜班的？", "数量", "B", "(lambda d: ((d.loc['刘德明',DAYS]=='夜')&(d.loc['钱国庆',DAYS]=='夜')).sum())(" + B4 + ".set_index('姓名'))", "value", {"accept": ["6天"]}),
    ("工业园1号客梯放在哪？", "地址", "D", "single(D.loc[(D.项目编号=='XMSQ0105')&(D.设备名称=='1号客梯'),'安装位置'])  # SB-0105-001", "value", {}),
    ("监测中心那台监控主机装哪儿了？", "地址", "D", "single(D.loc[(D.项目编号=='XMSQ0110')&(D.设备类型=='安防'),'安装位置'])  # SB-0110-004", "value", {}),
    ("赵巷4月那次消防检查是谁去查的？", "人员", "K,E", "WHO[single(K.loc[(K.项目编号=='XMSQ0131')&(K.检查类型=='消防安全检查'),'检查人工号'])]  # 2026-04-10", "value", {}),
    ("图书馆4月那次回访查出啥问题？几号整改好的？", "其他", "K", "(lambda r: (r.问题描述, r.整改完成日期))(single(K.loc[(K.项目编号=='XMSQ0102')&K.检查日期.str.startswith('2026-04')].itertuples()))  # 客户满意度回访 2026-04-10, 84分", "value",
     {"expected": "公共区域地面有污渍，2026-04-13整改完成", "all_of": ["地面有污渍", "04-13|4月13日|13号"], "check": ("公共区域地面有污渍", "2026-04-13")}),
    ("图书馆上个月还有多少票款没回来？", "金额", "F", "(lambda r: r.开票金额-r.收款金额)(" + _in(F4, "XMSQ0102") + ".iloc[0])  # 87841.42 - 79057.28", "value", {}),
    ("体育馆2月那笔款差了多少没收？", "金额", "F", "(lambda r: r.开票金额-r.收款金额)(" + _in(F2, "XMSQ0103") + ".iloc[0])  # 112644.38 - 90115.50", "value", {}),
    ("医院的魏师傅2月加了多少个小时班？", "数量", "A", A2 + ".loc[" + A2 + ".姓名=='魏大勇','加班小时'].iloc[0]  # the only 工程维修 at XMSQ0118", "value", {"accept": ["16小时"]}),
    ("工业园蒋文斌上个月哪天休的年假？", "日期", "A", "single([d for d in DAYS if " + A4 + ".loc[" + A4 + ".姓名=='蒋文斌',d].iloc[0]=='年'])", "value",
     {"expected": "4月10日", "accept": ["2026-04-10", "04-10", "10号"], "check": "10日"}),
    ("文体中心的合同离到期还有几天？", "数量", "P", "(DT(P.loc[P.项目编号=='XMSQ0100','结束日期'].iloc[0])-DT('2026-05-01')).days  # 2026-12-31", "value", {"accept": ["244天"]}),
    ("图书馆那台消防水泵哪年出厂的？", "日期", "D", "single(D.loc[(D.项目编号=='XMSQ0102')&(D.设备类型=='消防'),'出厂日期'])[:4]  # SB-0102-002 2012-02-01", "value",
     {"accept": ["2012-02-01", "2012年2月"]}),
    ("王志强最早接的是哪个项目？哪个月开始的？", "项目", "S,P", "(lambda r: (NAME[r.项目编号], r.开始年月))(S.loc[one(DT(S.loc[S.工号==JOB['王志强'],'开始年月']), top=False)])  # 工业园区 2024-05; 人民医院 2025-04", "value",
     {"expected": "青浦-工业园区，2024-05开始", "all_of": ["工业园区|XMSQ0105", "2024-05|2024年5月"], "check": ("青浦-工业园区", "2024-05")}),
    ("图书馆那份电梯维保合同是哪天签的？", "日期", "C", "single(C.loc[(C.记录类型=='维保合同')&(C.项目编号=='XMSQ0102'),'日期'])", "value", {"accept": ["1月5日"]}),
    ("滨江那个项目现在谁负责？电话多少？", "人员", "P,E", "(lambda w: (WHO[w], E.loc[E.工号==w,'联系电话'].iloc[0]))(P.loc[P.项目编号=='XMSQ0120','项目负责人工号'].iloc[0])", "value",
     {"expected": "张丽娟，13997110565", "all_of": ["张丽娟", "13997110565"], "check": ("张丽娟", "13997110565")}),
    ("监测中心保安编了几个？现在到岗几个？", "数量", "G", "(lambda g: (g.项目编制.sum(), g.在岗人数.sum()))(G.loc[(G.项目编号=='XMSQ0110')&G.岗位.str.startswith('保安')])  # 保安_普保 only", "value",
     {"expected": "编制2个（保安_普保），在岗1个", "all_of": ["2", "1"], "check": (2, 1)}),
    ("人医那边上个月考勤上几个人，一共加了多少小时班？", "数量", "A", "(lambda d: (len(d), d.加班小时.sum()))(" + _in(A4, "XMSQ0118") + ")  # 赵永刚 8, 韩立新 16, 孔美玲 0, 魏大勇 8", "value",
     {"expected": "4个人，一共加班32小时", "all_of": ["4", "32"], "check": (4, 32)}),
    ("北斗那边上个月有谁请过假？", "列表", "A", A4 + ".loc[(" + A4 + ".项目编号=='XMSQ0152')&(sum(cnt(" + A4 + ",c) for c in " + LEAVE + ")>0),'姓名'].tolist()  # 事病年调; 朱俊杰 none", "all", {}),
    ("赵巷镇政府3、4两个月开票差多少？", "金额", "F", "(lambda s: s['2026-03']-s['2026-04'])(F.loc[F.项目编号=='XMSQ0131'].set_index('年月').开票金额)  # 79015.30 -> 74807.45", "value", {}),
    ("北斗这四个月哪个月回款率最低？", "日期", "F", "one(F.loc[F.项目编号=='XMSQ0152'].groupby('年月').apply(" + RATE + "), top=False)  # 80%; 2月 90%, 3月 4月 100%", "value", {}),
    ("人医上个月14号白班是谁上的？", "列表", "B", B4 + ".loc[(" + B4 + ".项目编号=='XMSQ0118')&(" + B4 + "['14日']=='白'),'姓名'].tolist()", "all", {}),
    ("科创上个月哪几个人拿了值班费？", "列表", "A", A4 + ".loc[(" + A4 + ".项目编号=='XMSQ0112')&(" + A4 + ".值班费>0),'姓名'].tolist()  # 200 each", "all", {}),
    ("医院魏大勇上个月调休那天，排班表上本来是啥班？", "其他", "A,B", "(lambda d: " + B4 + ".loc[" + B4 + ".姓名=='魏大勇',d].iloc[0])(single([d for d in DAYS if " + A4 + ".loc[" + A4 + ".姓名=='魏大勇',d].iloc[0]=='调']))  # 26日", "value",
     {"expected": "全天班（4月26日调休，排班是“全”）", "all_of": ["全天|全"], "check": "全"}),
    ("图书馆吕秀英上个月请了几天假？", "数量", "A", "sum(cnt(" + A4 + ".loc[" + A4 + ".姓名=='吕秀英'],c).iloc[0] for c in " + LEAVE + ")  # 4日 事, 21日 病", "value", {"accept": ["2天"]}),
    ("工业园华国栋上个月排了几个全天班？", "数量", "B", "cnt(" + B4 + ".loc[" + B4 + ".姓名=='华国栋'],'全').iloc[0]", "value", {"accept": ["7个"]}),
    ("科创那台客梯是哪年出厂的？", "日期", "D", "None  # wrong premise: XMSQ0112 has no devices in 设备信息", NONE, {}),
    ("北斗园区那边的保安领班是谁？", "人员", "G,E", "None  # wrong premise: XMSQ0152 has no 保安_领班 post (岗位编制) and nobody of that post serves there", NONE, {}),
    ("夏阳那边客服的电话多少？", "电话", "G,E", "None  # wrong premise: XMSQ0125 has no 客服 post and nobody serves there", NONE, {}),
    ("体育馆3月那次整改花了多少钱？", "金额", "K", "None  # 检查记录 holds no rectification cost", NONE, {}),
    ("老城厢停车场上个月停车费收了多少？", "金额", "F", "None  # XMSQ0099 ended 2023-12-31; no 项目月度财务 rows, no parking fees", NONE, {}),
    ("郑晓冬上个月加了几个小时班？", "数量", "A", "None  # no 郑晓冬 (郑晓东 exists)", NONE, {}),
    ("徐汇-科技园那边4月开了多少票？", "金额", "F", "None  # no such project", NONE, {}),
    ("工业园那边上个月门岗登记了多少访客？", "数量", "-", "None  # no visitor records in any template", NONE, {}),
]

B62 = [
    ("客服里1月到手最高的是谁？", "人员", "A,E", "WHO[" + A1 + ".loc[one(" + A1 + ".loc[" + A1 + ".工号.isin(" + job_ids('客服') + "),'税后工资'])].工号]  # 谢梦瑶 5015.69, 姜雨婷 4985.58", "value", {}),
    ("2月考勤上记了调休的都有谁？", "列表", "A", A2 + ".loc[cnt(" + A2 + ",'调')>0,'姓名'].tolist()", "all", {}),
    ("这四个月谁的餐费加起来最多？", "人员", "A", "one(A.groupby('姓名').餐费.sum())  # 刘德明 1335; four at 1320", "value", {}),
    ("1到4月一天假都没请过的保安有哪几位？", "列表", "A,E", "A.assign(n=" + LEAVE_N + ").loc[A.工号.isin(E.loc[" + BAOAN + ",'工号'])].groupby('姓名').n.sum().pipe(lambda s: s[s==0].index.tolist())  # 事病年调 never; 何宇航 from 2月", "all", {}),
    ("女员工里入职最早的是谁？", "人员", "E", "WHO[E.loc[one(DT(E.loc[E.性别=='女','入职日期']), top=False)].工号]  # 陈慧敏 2019-05-13, 邹红梅 2019-07-01", "value", {}),
    ("今年前四个月一共有几天旷工？", "数量", "A", "cnt(A,'旷').sum()  # 杨振华 2月 2, 钱国庆 3月 1, 许建军 4月 3", "value", {"accept": ["6天"]}),
    ("刘德明2月到3月加班时长涨了多少？", "数量", "A", "(lambda s: s['2026-03']-s['2026-02'])(A.loc[A.姓名=='刘德明'].set_index('年月').加班小时)  # 8 -> 36", "value", {"accept": ["28小时"]}),
    ("2月比1月税后涨得最多的是谁？", "人员", "A", "one(A.pivot_table(index='姓名',columns='年月',values='税后工资').pipe(lambda p: (p['2026-02']-p['2026-01']).dropna()))  # 魏大勇 +356.41", "value", {}),
    ("1到4月每个月都有加班的保洁员是谁？", "人员", "A,E", "single(A.loc[A.工号.isin(" + job_ids('保洁员') + ")].groupby('姓名').加班小时.apply(lambda s: len(s)==4 and (s>0).all()).pipe(lambda s: s[s].index))", "value", {}),
    ("1月和4月都请过病假的是谁？", "人员", "A", "single(set(" + A1 + ".loc[cnt(" + A1 + ",'病')>0,'姓名'])&set(" + A4 + ".loc[cnt(" + A4 + ",'病')>0,'姓名']))  # 1月 17日, 4月 5日", "value", {}),
    ("持保安员证的那几位，1到4月谁加班时间最长？", "人员", "Q,A", "one(A.loc[A.工号.isin(Q.loc[Q.证书名称=='保安员（三级）','工号'])].groupby('姓名').加班小时.sum())  # 孙海涛 60; 刘德明, 郑晓东 52", "value", {}),
    ("4月既拿了值班费又有加班超时费的是哪几位？", "列表", "A", A4 + ".loc[(" + A4 + ".值班费>0)&(" + A4 + ".加班超时费>0),'姓名'].tolist()  # 刘德明, 金建平 0 超时费", "all", {}),
    ("两份电梯年度维保合同，哪份贵？贵多少？", "比较", "C,P", CMP + "((lambda d: d.set_index(d.项目编号.map(NAME)).金额)(C.loc[(C.记录类型=='维保合同')&(C.名称=='电梯年度维保')]))  # 工业园区 48000, 区图书馆 24000", "value",
     {"expected": "青浦-工业园区那份贵，贵24000元（48000对24000）", "all_of": ["工业园区", "24000|2.4万"]}),
    ("耗材和固定资产采购里，没填供应商的有几条？", "数量", "C", "(C.记录类型.isin(['耗材采购','固定资产'])&C.供应商名称.isna()).sum()  # LED 灯管, 对讲机电池, 保洁推车, 洗地机, 监控硬盘录像机", "value", {"accept": ["5条"]}),
    ("单价低于10块钱的耗材是哪样？", "其他", "C", "single(C.loc[(C.记录类型=='耗材采购')&(C.单价<10),'名称'])  # 1.2; next LED 灯管 18.5", "value", {"all_of": ["垃圾袋"]}),
    ("2月全公司的回款率是多少？", "比例", "F", RATE + "(" + F2 + ")", "value", {"pct": True}),
    ("科创大厦今年以来欠着的票款加起来还有多少？", "金额", "F", "(lambda d: d.开票金额.sum()-d.收款金额.sum())(F.loc[F.项目编号=='XMSQ0112'])  # 4月 fully collected", "value", {}),
    ("1月份全公司开票比收款多出多少？", "金额", "F", "(lambda d: d.开票金额.sum()-d.收款金额.sum())(M(F,'2026-01'))", "value", {}),
    ("今年投的两个标，投标金额加起来多少？", "金额", "T", "T.loc[T.年份=='2026','投标金额'].sum()  # 夏阳 840000 (中标), 文化馆 2070000 (待定)", "value", {"accept": ["291万"]}),
    ("2023年投的那两个标，结果分别怎么样？", "列表", "T,P", "[(NAME[r.项目编号], r.中标结果) for r in T.loc[T.年份=='2023'].itertuples()]", "value",
     {"expected": "青浦-区图书馆中标；青浦-老城厢停车场（续标）未中标", "all_of": ["区图书馆|XMSQ0102", "老城厢停车场|XMSQ0099", "未中标"],
      "check": ("('青浦-区图书馆', '中标')", "('青浦-老城厢停车场', '未中标')")}),
    ("李晓峰经办的那次投标是哪天中标的？", "日期", "T", "single(T.loc[T.投标经办人工号==JOB['李晓峰'],'中标日期'])  # XMSQ0112", "value", {"accept": ["2025年10月28日"]}),
    ("去年7月以后中标的有哪几个项目？", "列表", "T,P", "[NAME[p] for p in T.loc[(T.中标结果=='中标')&T.中标日期.fillna('').between('2025-07-01','2025-12-31'),'项目编号']]  # 赵巷镇政府 2025-06-10 is 上半年", "all",
     {"all_of": ["北斗园区|XMSQ0152", "科创大厦|XMSQ0112"]}),
    ("项目经理岗一共编了几个？实际到岗几个？", "数量", "G", "(lambda g: (g.项目编制.sum(), g.在岗人数.sum()))(G.loc[G.岗位=='项目经理'])  # 夏阳 1/0", "value",
     {"expected": "编制6个，到岗5个（夏阳社区中心缺1个）", "all_of": ["6", "5"], "check": (6, 5)}),
    ("保安领班这个岗位全公司编了几个？在岗几个？", "数量", "G", "(lambda g: (g.项目编制.sum(), g.在岗人数.sum()))(G.loc[G.岗位=='保安_领班'])  # 区图书馆, 工业园区, 科创大厦, 人民医院", "value",
     {"expected": "编制4个，在岗4个（全部到岗）", "all_of": ["4"], "check": (4, 4)}),
    ("4月税后比3月少的有几个人？", "数量", "A", "A.pivot_table(index='工号',columns='年月',values='税后工资').pipe(lambda p: (p['2026-04']<p['2026-03']).sum())  # people with both rows only (许建军 has no 3月 row)", "value", {"accept": ["20人", "20个"]}),
    ("4月到手最高的保安是哪个管理处的？", "部门", "A,E", ORG + "[" + A4 + ".loc[one(" + A4 + ".loc[" + A4 + ".工号.isin(E.loc[" + BAOAN + ",'工号']),'税后工资'])].工号]  # 吴建华 5916.44", "value",
     {"all_of": ["徐汇管理处"]}),
    ("按岗位字典算，1月考勤上的一线员工有几个人？", "数量", "A,E,W", "(" + A1 + ".工号.map(" + POST + ").map(" + LEVEL + ")=='一线员工').sum()  # 31 rows - 5 项目经理", "value", {"accept": ["26人", "26个"]}),
    ("4月工程维修那几位的加班超时费合计多少？", "金额", "A,E", A4 + ".loc[" + A4 + ".工号.isin(" + job_ids('工程维修') + "),'加班超时费'].sum()  # 180 + 0 + 180 + 180", "value", {"accept": ["540元"]}),
    ("高压电工证那几位，4月一共加了多少小时班？", "数量", "Q,A", A4 + ".loc[" + A4 + ".工号.isin(Q.loc[Q.证书名称=='高压电工作业','工号']),'加班小时'].sum()", "value", {}),
    ("有两本证的人里，谁4月到手多？多多少？", "比较", "Q,A", CMP + "(" + A4 + ".loc[" + A4 + ".工号.isin(Q.工号.value_counts().pipe(lambda s: s[s==2].index))].set_index('姓名').税后工资)  # 刘德明, 华国栋", "value",
     {"expected": "华国栋多，多723.1元（6305.90对5582.80）", "all_of": ["华国栋", "723.1"]}),
    ("3月收款比开票少的项目里，差额最大的是哪个？", "项目", "F,P", "NAME[one(" + F3 + ".set_index('项目编号').pipe(lambda d: d.开票金额-d.收款金额))]", "value", {}),
    ("2月哪几天全公司有人旷工？", "日期", "A", "[d for d in DAYS if (" + A2 + "[d]=='旷').any()]  # 杨振华", "all",
     {"expected": "2月5日、2月11日（杨振华）", "all_of": ["5日|5号|02-05", "11日|11号|02-11"]}),
    ("下个月有谁的证书要到期？", "列表", "Q", "None  # 人员证书 holds no issue / expiry dates", NONE, {}),
    ("上海安捷消防的资质等级是几级？", "其他", "C", "None  # no supplier qualification data", NONE, {}),
    ("开票用的税率是几个点？", "比例", "F", "None  # 口径 says 含税 only; no tax rate", NONE, {}),
    ("华国栋的高压电工证编号是多少？", "编号", "Q", "None  # no certificate number", NONE, {}),
    ("吕秀英4月请病假扣了多少钱？", "金额", "A", "None  # no deduction amounts; 税后工资 only", NONE, {}),
    ("公司给员工上的意外险是哪家保险公司？", "单位", "-", "None  # no insurance data", NONE, {}),
    ("工程维修岗每个月的岗位津贴是多少？", "金额", "A,W", "None  # no allowance item (考勤与人员财务: 餐费, 加班超时费, 国定加班费, 值班费, 税后工资)", NONE, {}),
    ("上海洁美那几笔货款付清了没有？", "其他", "C", "None  # 状态 says 已到货 only; no payment records", NONE, {}),
]

B63 = [
    ("1到4月收款按汇总业态分各多少？合计多少？", "分组", "F,P", TOT + "(F.groupby(F.项目编号.map(dict(zip(P.项目编号,P.汇总业态)))).收款金额.sum())", "group",
     {"all_of": ["公建", "园区", "商写", "医疗", "市政", "2290944.27", "1191065.56", "552697.41", "1015591.73", "419666.56", "5469965.53"]}),
    ("一季度两个管理处的加班小时各多少？合计多少？", "分组", "A,E", TOT + "(" + A_Q1 + ".pipe(lambda a: a.groupby(a.工号.map(" + ORG + ")).加班小时.sum()))", "group",
     {"all_of": ["青浦管理处|青浦", "徐汇管理处|徐汇", "456", "148", "604"]}),
    ("设备原值按设备类型各是多少？一共多少？", "分组", "D", TOT + "(D.groupby('设备类型').原值.sum())", "group",
     {"all_of": ["安防", "消防", "电力", "电梯", "空调", "84000|8.4万", "310000|31万", "840000|84万", "2280000|228万", "2700000|270万", "6214000|621.4万"]}),
    ("4月全公司收款环比3月是涨是跌？差多少？", "金额", "F", "(lambda s: s['2026-04']-s['2026-03'])(F.groupby('年月').收款金额.sum())  # 1375798.83 -> 1366798.14", "value",
     {"expected": "跌了，4月比3月少收9000.69元（3月1375798.83，4月1366798.14）", "all_of": ["9000.69"], "check": -9000.69}),
    ("3月全公司加班小时环比2月变了百分之几？", "比例", "A", "(lambda s: (s['2026-03']/s['2026-02']-1)*100)(A.groupby('年月').加班小时.sum())  # 216 -> 212", "value",
     {"expected": "下降了约1.85%（2月216小时，3月212小时）", "all_of": ["1.85|1.9"], "check": -1.85}),
    ("4月上班至少22天、加班也不少于8小时的是哪几位？", "条件", "A", A4 + ".loc[(" + A4 + ".上班天数>=22)&(" + A4 + ".加班小时>=8),'姓名'].tolist()", "all", {}),
    ("在服项目里满意度还不到90分的是哪些？", "条件", "P", "P.loc[" + SVC + "&(P.客户满意度<90),'项目名称'].tolist()", "all",
     {"all_of": ["区图书馆|XMSQ0102", "体育馆|XMSQ0103", "北斗园区|XMSQ0152", "环境监测中心|XMSQ0110"]}),
    ("合同面积不足两万平方米的在服项目有哪几个？", "条件", "P", "P.loc[" + SVC + "&(P.合同面积<20000),'项目名称'].tolist()", "all",
     {"all_of": ["区图书馆|XMSQ0102", "赵巷镇政府|XMSQ0131", "环境监测中心|XMSQ0110", "区档案馆|XMSQ0115", "夏阳|XMSQ0125"]}),
    ("客户投诉至少2次的在服项目有哪些？", "条件", "P", "P.loc[" + SVC + "&(P.客户投诉>=2),'项目名称'].tolist()", "all",
     {"all_of": ["区图书馆|XMSQ0102", "科创大厦|XMSQ0112", "人民医院|XMSQ0118"]}),
    ("4月加班至少16个小时的是哪几位？", "条件", "A", A4 + ".loc[" + A4 + ".加班小时>=16,'姓名'].tolist()", "all", {}),
    ("名下设备最多的那位设备责任人，4月到手多少？", "金额", "D,A", A4 + ".loc[" + A4 + ".工号==one(D.设备责任人工号.value_counts()),'税后工资'].iloc[0]  # 华国栋 8 devices", "value", {}),
    ("检查平均分最低的项目，客户满意度是多少？", "数量", "K,P", "P.loc[P.项目编号==one(K.groupby('项目编号').检查得分.mean(), top=False),'客户满意度'].iloc[0]  # 区图书馆 82 (80, 84)", "value", {"accept": ["87.7分"]}),
    ("园区类和公建类在服项目，平均客户满意度差多少？", "比较", "P", CMP + "(P.loc[" + SVC + "&P.汇总业态.isin(['园区','公建'])].groupby('汇总业态').客户满意度.mean())", "value",
     {"expected": "公建类高，平均高3.14分（91.24对88.1）", "all_of": ["公建", "3.14"]}),
    ("两位片区负责人，谁名下项目的检查平均分高？高多少？", "比较", "Z,P,K", CMP + "(K.groupby(K.项目编号.map(dict(zip(P.项目编号,P.项目负责人工号)))).检查得分.mean().loc[Z.片区负责人工号].rename(WHO))  # 周建国 80 84 90, 李晓峰 98 84 81", "value",
     {"expected": "李晓峰高，高3分（87.67对84.67）", "all_of": ["李晓峰", "3"]}),
    ("4月人均到手最低的是哪个项目？", "项目", "A,P", "NAME[one(" + A4 + ".groupby('项目编号').税后工资.mean(), top=False)]", "value", {}),
    ("1到4月里全公司回款率最好的是哪个月？", "日期", "F", "one(F.groupby('年月').apply(" + RATE + "))  # 94.70%", "value", {}),
    ("两个片区各有几个在服项目？", "分组", "ZP,Z,P", "ZP.loc[ZP.项目编号.isin(P.loc[" + SVC + ",'项目编号'])].groupby(ZP.片区编号.map(dict(zip(Z.片区编号,Z.片区名称)))).size().to_dict()  # 科创大厦 is in both", "group", {}),
    ("哪个项目经理名下在服项目的客户投诉加起来最多？", "人员", "P", "one(P.loc[" + SVC + "].groupby('项目负责人').客户投诉.sum())  # 周建国 5; 李晓峰 4", "value", {}),
    ("王志强名下在服项目的年化合同额占全部在服项目的多少？", "比例", "P", "P.loc[" + SVC + "&(P.项目负责人=='王志强'),'年化合同额'].sum()/P.loc[" + SVC + ",'年化合同额'].sum()  # 5770000 / 17700000", "value", {"pct": True}),
    ("1到4月收款总额的第二名是哪个项目？", "项目", "F,P", "NAME[second(F.groupby('项目编号').收款金额.sum())]", "value", {"all_of": ["文体中心|XMSQ0100"]}),
    ("拿毛利率第一和垫底的两个在服项目比，1到4月开票差多少？", "比较", "P,F", CMP + "(F.loc[F.项目编号.isin([one(P.loc[" + SVC + "].set_index('项目编号').实际毛利率), one(P.loc[" + SVC + "].set_index('项目编号').实际毛利率, top=False)])].groupby(F.项目编号.map(NAME)).开票金额.sum())  # 工业园区 0.238, 滨江公园 0.083", "value",
     {"expected": "毛利率最高的青浦-工业园区多，比毛利率最低的徐汇-滨江公园多开307207.17元", "all_of": ["工业园区", "307207.17"]}),
    ("投标金额最高的那次投标，对应项目4月回款率多少？", "比例", "T,F", RATE + "(" + F4 + ".loc[" + F4 + ".项目编号==T.loc[one(T.投标金额)].项目编号])  # 人民医院", "value", {"pct": True, "accept": ["80%"]}),
    ("4月税后工资按岗位汇总各多少？再给个总数", "分组", "A,E", TOT + "(" + A4 + ".groupby(" + A4 + ".工号.map(" + POST + ")).税后工资.sum())", "group",
     {"all_of": ["保安_普保|普保", "保安_领班|领班", "保洁", "客服", "工程维修", "项目经理", "44276.93", "22722.28", "18602.27", "14347.18", "24364.8", "51915.53", "176228.99"]}),
    ("青浦片区负责人名下的在服项目里，哪个4月开票最多？", "项目", "Z,P,F", "NAME[one(" + F4 + ".loc[" + F4 + ".项目编号.isin(P.loc[" + SVC + "&(P.项目负责人工号==Z.loc[Z.片区名称=='青浦片区','片区负责人工号'].iloc[0]),'项目编号'])].set_index('项目编号').开票金额)]  # 周建国", "value",
     {"all_of": ["文体中心|XMSQ0100"]}),
    ("持物业管理师证的项目经理，名下在服项目4月开票合计多少？", "金额", "Q,P,F", F4 + ".loc[" + F4 + ".项目编号.isin(P.loc[" + SVC + "&P.项目负责人工号.isin(Q.loc[Q.证书名称=='物业管理师','工号']),'项目编号']),'开票金额'].sum()  # 张丽娟 holds none", "value", {}),
    ("2月到3月开票环比涨幅最大的是哪个项目？涨了百分之几？", "项目", "F,P", "(lambda s: (NAME[one(s)], round(s.max()*100, 2)))(F.pivot(index='项目编号', columns='年月', values='开票金额').pipe(lambda d: (d['2026-03']/d['2026-02']-1).dropna()))  # 101938.14 -> 109997.85; 夏阳 starts 3月", "value",
     {"expected": "徐汇-滨江公园，涨了约7.91%（101938.14→109997.85）", "all_of": ["滨江公园|XMSQ0120", "7.91|7.9"], "check": ("徐汇-滨江公园", 7.91)}),
    ("上个月工资最高的三个人是谁？", "列表", "A", "(lambda s: s.index[:3].tolist() if s.iloc[2]>s.iloc[3] else None)(" + A4 + ".set_index('姓名').税后工资.sort_values(ascending=False))", "all", {}),
    ("按岗位字典算一线员工的，4月人均到手多少？", "金额", "A,E,W", A4 + ".loc[" + A4 + ".工号.map(" + POST + ").map(" + LEVEL + ")=='一线员工','税后工资'].mean()  # 26 rows", "value", {}),
    ("满意度至少95分的在服项目，年化合同额合计多少？", "金额", "P", "P.loc[" + SVC + "&(P.客户满意度>=95),'年化合同额'].sum()  # 文体中心 95.7, 人民医院 98.0", "value", {"accept": ["560万"]}),
    ("中标后现在还在服的项目，当初投标金额合计多少？", "金额", "T,P", "T.loc[(T.中标结果=='中标')&T.项目编号.isin(P.loc[" + SVC + ",'项目编号']),'投标金额'].sum()", "value", {"accept": ["3011万"]}),
    ("登记了设备的那几个项目，4月开票占全公司的百分之几？", "比例", "D,F", F4 + ".loc[" + F4 + ".项目编号.isin(D.项目编号),'开票金额'].sum()/" + F4 + ".开票金额.sum()  # 工业园区, 监测中心, 人民医院, 区图书馆", "value", {"pct": True}),
    ("检查得分低于85分的那些项目，4月一共开了多少票？", "金额", "K,F", F4 + ".loc[" + F4 + ".项目编号.isin(K.loc[K.检查得分<85,'项目编号']),'开票金额'].sum()  # 区图书馆, 赵巷镇政府, 北斗园区, 工业园区, 科创大厦, 区档案馆", "value", {}),
    ("一季度开票同比去年一季度增长了多少？", "比例", "F", "None  # 去年一季度 = 2025-01..03; 项目月度财务 only 2026-01..04", NONE, {}),
    ("我们在青浦区物业市场的占有率是多少？", "比例", "-", "None  # external market data", NONE, {}),
    ("哪个项目回款平均逾期天数最长？", "项目", "F", "None  # no due dates or payment dates; monthly totals only", NONE, {}),
    ("各项目员工培训时长人均多少小时？", "数量", "-", "None  # no training records", NONE, {}),
    ("浦东管理处上个月发了多少工资？", "金额", "E,A", "None  # 组织名称 only 申勤物业青浦管理处, 申勤物业徐汇管理处", NONE, {}),
    ("徐汇-漕宝路商场那个项目的合同面积多大？", "数量", "P", "None  # no such project", NONE, {}),
    ("哪家供应商的交付准时率最高？", "单位", "C", "None  # no delivery dates or punctuality data", NONE, {}),
    ("在服项目的甲方对接人都是谁？电话多少？", "人员", "P", "None  # 甲方名称 only; no client contact person or phone", NONE, {}),
]


BATCHES = [(61, B61), (62, B62), (63, B63)]

if __name__ == "__main__":
    p58.main(BATCHES)  # --probe prints the computed values; else check, verify and write
