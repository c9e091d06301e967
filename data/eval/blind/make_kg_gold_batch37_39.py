"""Fresh blind KG batches 37-39 (issue #15, twelfth fresh round, KG only): computes every gold answer
with pandas straight from the sample spreadsheets (data/samples/business/*.xlsx) and writes
kg_batch_{37,38,39}.jsonl next to this file. Written by a writer who did not read the engine, its
rules, the golden sets, the tests, the git history or the old batch files' questions (beyond those
quoted in README.md and held in the gold scripts this one imports, which were avoided), and who did
not run the engine or the scorer on these questions.

Same conventions as make_kg_gold_batch34_36.py (frames P E S Z ZP F A B T G D C K Q W, `cnt`, `pid`,
`NAME`, `WHO` 工号 -> 姓名, `JOB` 姓名 -> 工号, `M(df, ym)` rows of one 年月, `one(series)` the single
index of a maximum/minimum, asserting there is no tie, `DT` = pd.to_datetime). Two more helpers:
`single(seq)` the only element of a list (asserts there is exactly one) and `only(series)` the only
distinct value of a column (asserts all rows agree). The pandas expression is kept in each record's
"source"; expected null = not in the data. Bare months mean 2026. Relative dates are read against the
KG run's ZHICE_TODAY=2026-05-01: 今年 = 2026, 去年 = 2025, 上个月 = 2026-04, 上个季度 = 一季度 =
2026-01..03, "截至今天" = 2026-05-01. Month golds are written 2026-MM and also accept "M月"; the month
keys of a per-month group answer accept either form. Two-entity comparisons (kind 比较) carry a
hand-written gold "winner, difference" that `_months` (imported) checks against the computed pair.
Records may carry two writer-side keys that never reach the files: "unit" (the gold is the computed
number followed by this unit) and "pct" (the gold is the computed ratio written as a percentage with
two decimals, accepting one decimal).

    .venv/bin/python data/eval/blind/make_kg_gold_batch37_39.py
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kg_gold as base  # noqa: E402
import make_kg_gold_batch28_30 as p28  # noqa: E402,F401  (registers WHO, JOB, M, one, W, DT in base.NS)
import make_kg_gold_batch31_33 as p31  # noqa: E402  (_months: month accepts, comparison check)
import make_kg_gold_batch34_36 as p34  # noqa: E402  (job_ids, ZAIZHI, _check_groups; sets NS["DAYS"])

NONE = "none"  # not answerable from the spreadsheets: expected null
Q1 = p28.Q1  # 一季度 = ['2026-01','2026-02','2026-03']
BAOAN = p28.BAOAN  # 保安 = 保安_领班 + 保安_普保
XIAYANG = p28.XIAYANG
ZAIZHI = p34.ZAIZHI  # 在职 = 离职日期 empty
job_ids = p34.job_ids
LEAVE = "['事','病','年','调']"  # the leave codes of 考勤 (旷 is absence, 休 a rest day)


def single(seq):
    """The only element of ``seq``; more or fewer would make the gold ambiguous."""
    seq = list(seq)
    assert len(seq) == 1, seq
    return seq[0]


def only(series):
    """The one distinct value of ``series`` (every row must agree)."""
    vals = series.dropna().unique()
    assert len(vals) == 1, vals
    return vals[0]


base.NS.update(single=single, only=only, DAYS=base.DAYS)
MONTH = p31.month_item

B37 = [
    ("项目月度财务里的开票金额是按什么口径记的？", "类别", "F", "only(F.口径)", "value", {}),
    ("SB-0110-004的规格型号是什么？", "其他", "D", "D.loc[D.设备编号=='SB-0110-004','规格型号'].iloc[0]", "value", {}),
    ("青浦-人民医院的设备是哪天进的项目？", "日期", "D", "only(D.loc[D.项目编号=='XMSQ0118','入项目日期'])", "value", {}),
    ("上海安捷消防工程有限公司现在的合作状态是什么？", "状态", "C", "C.loc[(C.记录类型=='供应商')&(C.名称=='上海安捷消防工程有限公司'),'状态'].iloc[0]", "value", {}),
    ("合同金额排第二的是哪个项目？", "项目", "P", "P.sort_values('合同金额',ascending=False).项目名称.iloc[1]  # 9600000 > 7200000 > 6450000, no tie", "value", {"all_of": ["文体中心|XMSQ0100"]}),
    ("按合同面积算，哪个项目每平方米的年化合同额最高？", "项目", "P", "P.loc[one(P.年化合同额/P.合同面积)].项目名称", "value", {"all_of": [XIAYANG]}),
    ("青浦-人民医院这份合同签了几年？", "数量", "P", "round((DT(P.loc[P.项目编号=='XMSQ0118','结束日期'].iloc[0])-DT(P.loc[P.项目编号=='XMSQ0118','开始日期'].iloc[0])).days/365.25)  # 2025-04-01..2028-03-31", "value", {"unit": "年", "accept": ["三年"]}),
    ("青浦-北斗园区续签以后，合同金额比上一期多了多少？", "金额", "P", "(lambda new: new.合同金额-P.loc[P.项目编号==new.续签前项目编号,'合同金额'].iloc[0])(P.loc[P.项目编号=='XMSQ0152'].iloc[0])", "value", {"accept": ["36万"]}),
    ("3月徐汇管理处员工的平均税后工资是多少？", "金额", "A,E", "M(A,'2026-03').loc[M(A,'2026-03').工号.isin(E.loc[E.组织名称=='申勤物业徐汇管理处','工号']),'税后工资'].mean()", "value", {}),
    ("截至今天，入职满5年的在职员工有几个？", "数量", "E", "((DT(E.入职日期)<=DT('2021-05-01'))&" + ZAIZHI + ").sum()  # today = 2026-05-01; nobody joined 2021-04-13..2021-05-09", "value", {}),
    ("在职员工里一本证书都没有的有几个？", "数量", "E,Q", "(" + ZAIZHI + "&~E.工号.isin(Q.工号)).sum()", "value", {}),
    ("3月税后工资最高的人和最低的人差了多少？", "金额", "A", "M(A,'2026-03').税后工资.max()-M(A,'2026-03').税后工资.min()", "value", {}),
    ("3月5日那天是谁旷工了？", "人员", "A", "M(A,'2026-03').loc[M(A,'2026-03')['5日']=='旷','姓名'].tolist()", "all", {}),
    ("截至今天，启用已满十年的设备有几台？", "数量", "D", "(DT(D.启用日期)<=DT('2016-05-01')).sum()  # today = 2026-05-01; next 启用 after is 2017-03-01", "value", {}),
    ("周建国和王志强，谁负责的项目合同金额加起来更多？多多少？", "比较", "P", "(lambda s: (s.idxmax(), s.max()-s.min()))(P.loc[P.项目负责人.isin(['周建国','王志强'])].groupby('项目负责人').合同金额.sum())", "value",
     {"expected": "王志强，多2714400元", "all_of": ["王志强", "2714400"]}),
    ("工程维修的几个人里，1到4月一次假都没请过的是谁？", "人员", "A,E", "[n for n in E.loc[E.岗位名称=='工程维修','姓名'] if sum(cnt(A.loc[A.姓名==n],c).sum() for c in " + LEAVE + ")==0]", "all", {}),
    ("4月开票比3月增加最多的是哪个项目？", "项目", "F,P", "NAME[one((M(F,'2026-04').set_index('项目编号').开票金额-M(F,'2026-03').set_index('项目编号').开票金额).dropna())]", "value", {"all_of": ["人民医院|XMSQ0118"]}),
    ("1到4月累计开票减去收款，差额最大的是哪个项目？", "项目", "F,P", "NAME[one((F.开票金额-F.收款金额).groupby(F.项目编号).sum())]", "value", {"all_of": ["科创大厦|XMSQ0112"]}),
    ("值班费都发给了哪些岗位的人？", "列表", "A,E", "sorted(set(E.set_index('工号').岗位名称[A.loc[A.值班费>0,'工号']]))", "all",
     {"all_of": ["保安_领班|保安领班|领班", "工程维修"]}),
    ("1到4月里，国定加班费是在哪几个月发的？", "日期", "A", "A.groupby('年月').国定加班费.sum().pipe(lambda s: s[s>0].index.tolist())", "all",
     {"all_of": [MONTH("2026-01"), MONTH("2026-02")]}),
    ("已中标的投标里，哪个项目的投标金额跟合同金额不一致？相差多少？", "金额", "T,P", "single([[NAME[p], dict(zip(P.项目编号,P.合同金额))[p]-a] for p, a in zip(T.loc[T.中标结果=='中标','项目编号'], T.loc[T.中标结果=='中标','投标金额']) if dict(zip(P.项目编号,P.合同金额))[p]!=a])", "all",
     {"expected": "青浦-体育馆，合同金额比投标金额多35600元"}),
    ("按汇总业态分，服务中项目的年化合同额各是多少？", "分组", "P", "P.loc[P.服务状态=='服务中'].groupby('汇总业态').年化合同额.sum().to_dict()", "group", {}),
    ("SB-0118-003的设备责任人电话是多少？", "电话", "D,E", "E.loc[E.工号==D.loc[D.设备编号=='SB-0118-003','设备责任人工号'].iloc[0],'联系电话'].iloc[0]", "value", {}),
    ("检查得分最高的那一次是谁检查的？", "人员", "K,E", "WHO[K.loc[one(K.检查得分),'检查人工号']]", "value", {}),
    ("青浦-人民医院那次投标的经办人属于哪个管理处？", "部门", "T,E", "E.loc[E.工号==T.loc[T.项目编号=='XMSQ0118','投标经办人工号'].iloc[0],'组织名称'].iloc[0]", "value", {"accept": ["青浦管理处"]}),
    ("戚佳怡所在项目的片区负责人是谁？", "人员", "E,ZP,Z", "WHO[Z.set_index('片区编号').片区负责人工号[single(ZP.loc[ZP.项目编号==E.loc[E.姓名=='戚佳怡','当前服务项目编号'].iloc[0],'片区编号'])]]", "value", {}),
    ("岗位编制里列了岗位、却没有项目经理这一岗的项目有哪些？", "列表", "G,P", "[NAME[p] for p in G.项目编号.unique() if not ((G.项目编号==p)&(G.岗位=='项目经理')).any()]", "all",
     {"all_of": ["体育馆|XMSQ0103", "赵巷镇政府|XMSQ0131", "科创大厦|XMSQ0112", "区档案馆|XMSQ0115", "人民医院|XMSQ0118"]}),
    ("孙海涛3月有几天是休息日来加班的（考勤记“加”）？", "数量", "A", "cnt(M(A,'2026-03').loc[M(A,'2026-03').姓名=='孙海涛'],'加').iloc[0]", "value", {}),
    ("何宇航4月一共排了几天班（不算休息）？", "数量", "B", "(lambda r: r[DAYS].notna().sum()-(r[DAYS]=='休').sum())(M(B,'2026-04').loc[M(B,'2026-04').姓名=='何宇航'].iloc[0])", "value", {}),
    ("2月既请过事假又请过年假的是谁？", "人员", "A", "M(A,'2026-02').loc[(cnt(M(A,'2026-02'),'事')>0)&(cnt(M(A,'2026-02'),'年')>0),'姓名'].tolist()", "all", {}),
    ("一季度保安的加班小时一共是多少？", "数量", "A,E", "A.loc[A.年月.isin(" + Q1 + ")&A.工号.isin(E.loc[" + BAOAN + ",'工号']),'加班小时'].sum()", "value", {}),
    ("保安里年纪最小的是谁？", "人员", "E", "E.loc[one(DT(E.loc[" + BAOAN + ",'出生日期']))].姓名", "value", {}),
    ("青浦-人民医院4月的开票金额同比增长了多少？", "金额", "F", "None  # 同比 needs 2025-04; F.年月 only 2026-01..04", NONE, {}),
    ("刘德明3月2日那天加班了几个小时？", "数量", "A", "None  # 加班小时 is a monthly total; the 2日 code 加 carries no hours", NONE, {}),
    ("青浦-老城厢停车场那次没中的标，最后是被哪家公司拿走的？", "单位", "T", "None  # no winning-bidder / competitor field", NONE, {}),
    ("周国建手上现在有几个服务中的项目？", "数量", "P", "None  # no 周国建 (周建国 exists: characters swapped)", NONE, {}),
    ("青浦-北斗园区三期的合同金额是多少？", "金额", "P", "None  # only two periods (XMSQ0052, XMSQ0152)", NONE, {}),
    ("姜雨婷4月31日排的是什么班？", "其他", "B", "None  # April has 30 days (31日 empty in every 2026-04 row)", NONE, {}),
    ("刘德明3月的夜班补贴是多少？", "金额", "A", "None  # no 夜班补贴 item (餐费, 加班超时费, 国定加班费, 值班费 only)", NONE, {}),
    ("青浦-工业园区当初投标报了多少钱？", "金额", "T", "None  # XMSQ0105 has no row in 投标记录", NONE, {}),
]

B38 = [
    ("孙海涛现在在哪个项目？那个项目的负责人是谁？", "人员", "E,P", "(lambda p: [NAME[p], P.loc[P.项目编号==p,'项目负责人'].iloc[0]])(E.loc[E.姓名=='孙海涛','当前服务项目编号'].iloc[0])", "all",
     {"all_of": ["工业园区|XMSQ0105", "王志强"]}),
    ("上海洁美清洁用品有限公司属于哪一类供应商？", "类别", "C", "C.loc[(C.记录类型=='供应商')&(C.名称=='上海洁美清洁用品有限公司'),'类别'].iloc[0]", "value", {}),
    ("中央空调维保这份合同现在是什么状态？", "状态", "C", "C.loc[C.名称=='中央空调维保','状态'].iloc[0]", "value", {}),
    ("青浦-北斗园区上一期合同是哪天到期的？", "日期", "P", "P.loc[P.项目编号==P.loc[(P.项目名称=='青浦-北斗园区')&(P.服务状态=='服务中'),'续签前项目编号'].iloc[0],'结束日期'].iloc[0]", "value", {}),
    ("青浦区和徐汇区服务中的项目，哪个区的客户满意度平均更高？高多少？", "比较", "P", "(lambda s: (s.idxmax(), s.max()-s.min()))(P.loc[P.服务状态=='服务中'].groupby('市区').客户满意度.mean())", "value",
     {"expected": "徐汇区，高1.06分", "all_of": ["徐汇区", "1.06"]}),
    ("投标类型为新标的一共投了几次？", "数量", "T", "(T.投标类型=='新标').sum()", "value", {}),
    ("青浦-人民医院1到4月的收款金额占开票金额的百分之多少？", "比例", "F", "F.loc[F.项目编号=='XMSQ0118','收款金额'].sum()/F.loc[F.项目编号=='XMSQ0118','开票金额'].sum()", "value", {"pct": True}),
    ("4月税后工资排第三的是谁？", "人员", "A", "M(A,'2026-04').sort_values('税后工资',ascending=False).姓名.iloc[2]  # 10695.27 > 10650.59 > 10633.46 > 10214.58", "value", {}),
    ("1到4月加班小时累计超过50小时的有几个人？", "数量", "A", "(A.groupby('工号').加班小时.sum()>50).sum()", "value", {}),
    ("按政治面貌分，在职员工各有多少人？", "分组", "E", "E.loc[" + ZAIZHI + "].groupby('政治面貌').size().to_dict()", "group", {}),
    ("设备一共分布在几个项目上？", "数量", "D", "D.项目编号.nunique()", "value", {}),
    ("哪个项目的设备原值合计最高？", "项目", "D,P", "NAME[one(D.groupby('项目编号').原值.sum())]", "value", {"all_of": ["工业园区|XMSQ0105"]}),
    ("待修的设备分别由谁负责？", "人员", "D,E", "[WHO[w] for w in D.loc[D.完好状况=='待修','设备责任人工号']]", "all", {}),
    ("哪位检查人查出问题的次数最多？", "人员", "K,E", "WHO[one(K.loc[K.问题描述.notna()].groupby('检查人工号').size())]", "value", {}),
    ("“消防通道堆放杂物”这个问题，从检查到整改完成用了几天？", "数量", "K", "(lambda r: (DT(r.整改完成日期)-DT(r.检查日期)).days)(K.loc[K.问题描述=='消防通道堆放杂物'].iloc[0])", "value", {"unit": "天"}),
    ("4月哪个项目的员工税后工资合计最高？", "项目", "A,P", "NAME[one(M(A,'2026-04').groupby('项目编号').税后工资.sum())]", "value", {"all_of": ["区图书馆|XMSQ0102"]}),
    ("青浦-人民医院的员工里，4月谁加班时间最长？", "人员", "A", "M(A,'2026-04').loc[one(M(A,'2026-04').loc[M(A,'2026-04').项目编号=='XMSQ0118','加班小时'])].姓名", "value", {}),
    ("曹秀珍1到4月一共排了多少个白班？", "数量", "B", "cnt(B.loc[B.姓名=='曹秀珍'],'白').sum()", "value", {}),
    ("姜雨婷3月排的晚班比早班多几个？", "数量", "B", "(lambda r: cnt(r,'晚').iloc[0]-cnt(r,'早').iloc[0])(M(B,'2026-03').loc[M(B,'2026-03').姓名=='姜雨婷'])", "value", {}),
    ("各项目的岗位里，满编（在岗人数等于项目编制）的一共有几个？", "数量", "G", "(G.在岗人数==G.项目编制).sum()  # rows of 岗位编制 (project × 岗位)", "value", {}),
    ("王志强经办的投标中，投标金额最大的是哪个项目？", "项目", "T,P", "NAME[T.loc[one(T.loc[T.投标经办人工号==JOB['王志强'],'投标金额'])].项目编号]", "value", {"all_of": ["人民医院|XMSQ0118"]}),
    ("2025年入职的员工，现在分别在哪些项目上？", "列表", "E,P", "[NAME[p] for p in E.loc[E.入职日期.str.startswith('2025'),'当前服务项目编号']]  # all four still employed", "all",
     {"all_of": ["环境监测中心|XMSQ0110", "滨江公园|XMSQ0120", "科创大厦|XMSQ0112", "赵巷镇政府|XMSQ0131"]}),
    ("徐汇管理处里谁持有高压电工作业证？", "人员", "E,Q", "E.loc[(E.组织名称=='申勤物业徐汇管理处')&E.工号.isin(Q.loc[Q.证书名称=='高压电工作业','工号']),'姓名'].tolist()", "all", {}),
    ("戚佳怡3月请事假是哪一天？", "日期", "A", "'2026-03-' + single(d for d in DAYS if M(A,'2026-03').loc[M(A,'2026-03').姓名=='戚佳怡',d].iloc[0]=='事')[:-1].zfill(2)", "value", {"accept": ["3月4日"]}),
    ("证书类别不止一种的员工是谁？", "人员", "Q", "Q.groupby('姓名').证书类别.nunique().pipe(lambda s: s[s>1].index.tolist())", "all", {}),
    ("郑晓东在赵巷镇政府一共干了几个月？", "数量", "S,E", "(lambda r: (int(r.结束年月[:4])-int(r.开始年月[:4]))*12+int(r.结束年月[5:])-int(r.开始年月[5:])+1)(S.loc[(S.工号==JOB['郑晓东'])&(S.项目编号=='XMSQ0131')].iloc[0])  # 2026-01..2026-02", "value",
     {"unit": "个月", "accept": ["两个月"]}),
    ("青浦片区负责人今年多大岁数？", "数量", "Z,E", "(lambda b: 2026-b.year-((5, 1) < (b.month, b.day)))(DT(E.loc[E.工号==Z.loc[Z.片区名称=='青浦片区','片区负责人工号'].iloc[0],'出生日期'].iloc[0]))  # age on 2026-05-01", "value", {"unit": "岁"}),
    ("保洁员1到4月的餐费一共发了多少？", "金额", "A,E", "A.loc[A.工号.isin(" + job_ids('保洁员') + "),'餐费'].sum()", "value", {}),
    ("客服岗位在各项目的项目编制加起来是多少？", "数量", "G", "G.loc[G.岗位=='客服','项目编制'].sum()", "value", {}),
    ("职级是P3的有哪些人？", "列表", "E", "E.loc[E.职级=='P3','姓名'].tolist()", "all", {}),
    ("2月全公司的餐费比1月少发了多少？", "金额", "A", "M(A,'2026-01').餐费.sum()-M(A,'2026-02').餐费.sum()  # > 0: 2月 is lower", "value", {}),
    ("3月哪个岗位的人均加班小时最多？", "其他", "A,E", "one(M(A,'2026-03').groupby(M(A,'2026-03').工号.map(dict(zip(E.工号,E.岗位名称)))).加班小时.mean())", "value",
     {"all_of": ["保安_领班|保安领班|领班"]}),
    ("青浦-人民医院4月那笔收款是哪天到账的？", "日期", "F", "None  # F holds monthly totals only, no payment dates", NONE, {}),
    ("魏大勇的高压电工证是几级的？", "其他", "Q", "None  # 证书名称 高压电工作业 carries no grade (no 等级 field)", NONE, {}),
    ("徐汇-科创大厦B座今年开了多少票？", "金额", "P,F", "None  # no 徐汇-科创大厦B座 (the data does not split buildings)", NONE, {}),
    ("徐汇-环境监测中心的电梯维保合同是跟哪家公司签的？", "单位", "C", "None  # XMSQ0110 has only 消防设施维保 in 采购与维保; no 电梯 维保合同", NONE, {}),
    ("徐汇-文化馆那次投标什么时候出结果？", "日期", "T", "None  # 中标结果 待定, 中标日期 empty; no expected result date", NONE, {}),
    ("青浦-老城厢停车场那次投标为什么没中？", "其他", "T", "None  # no reason field (中标结果 未中标 only)", NONE, {}),
    ("2026年全年预计能开多少票？", "金额", "F", "None  # a forecast; F holds 2026-01..04 actuals only", NONE, {}),
    ("赵巷镇政府查出“消防通道堆放杂物”后，整改负责人是谁？", "人员", "K", "None  # no 整改负责人 field (检查人工号 is the inspector)", NONE, {}),
]

B39 = [
    ("秦家豪归哪个管理处管？", "部门", "E", "E.loc[E.姓名=='秦家豪','组织名称'].iloc[0]", "value", {"accept": ["徐汇管理处"]}),
    ("工业园区那俩客梯分别是哪年出厂的？", "日期", "D", "D.loc[(D.项目编号=='XMSQ0105')&D.设备名称.str.endswith('客梯'),'出厂日期'].tolist()", "all",
     {"all_of": ["2013-11-01|2013年|2013-11", "2015-07-01|2015年|2015-07"]}),
    ("上个月全公司开了多少票？", "金额", "F", "M(F,'2026-04').开票金额.sum()  # 上个月 = 2026-04 (ZHICE_TODAY=2026-05-01)", "value", {}),
    ("上个季度一共收回来多少钱？", "金额", "F", "F.loc[F.年月.isin(" + Q1 + "),'收款金额'].sum()  # 上个季度 = 2026-01..03", "value", {}),
    ("搞工程维修的几个师傅，谁的证最多？", "人员", "Q,E", "one(Q.loc[Q.工号.isin(" + job_ids('工程维修') + ")].groupby('姓名').size())", "value", {}),
    ("医院那边4月谁到手最多？", "人员", "A", "M(A,'2026-04').loc[one(M(A,'2026-04').loc[M(A,'2026-04').项目编号=='XMSQ0118','税后工资'])].姓名", "value", {}),
    ("4月有没有哪个项目开票过了25万？是哪个？", "项目", "F,P", "[NAME[p] for p in M(F,'2026-04').loc[M(F,'2026-04').开票金额>250000,'项目编号']]", "all", {"all_of": ["人民医院|XMSQ0118"]}),
    ("许建军4月是哪几天旷的工？", "列表", "A", "[d for d in DAYS if M(A,'2026-04').loc[M(A,'2026-04').姓名=='许建军',d].iloc[0]=='旷']", "all",
     {"expected": "4月5日、4月11日、4月16日", "all_of": ["4月5日|04-05|5日", "4月11日|04-11|11日", "4月16日|04-16|16日"]}),
    ("谁手上管的设备最多？", "人员", "D,E", "WHO[one(D.groupby('设备责任人工号').size())]", "value", {}),
    ("咱们的设备哪家厂子的最多？", "其他", "D", "one(D.groupby('制造厂商').size())", "value", {}),
    ("洗地机验收了没？", "状态", "C", "C.loc[C.名称=='洗地机','状态'].iloc[0]", "value", {}),
    ("耗材加固定资产，哪个项目买得最多？", "项目", "C,P", "NAME[one(C.loc[C.记录类型.isin(['耗材采购','固定资产'])].groupby('项目编号').金额.sum())]", "value", {"all_of": ["工业园区|XMSQ0105"]}),
    ("北斗园区这期比上期，客户满意度掉了多少分？", "数量", "P", "(lambda new: P.loc[P.项目编号==new.续签前项目编号,'客户满意度'].iloc[0]-new.客户满意度)(P.loc[P.项目编号=='XMSQ0152'].iloc[0])", "value", {}),
    ("谢梦瑶跟姜雨婷3月谁加班多？多几个钟头？", "比较", "A", "(lambda s: (s.idxmax(), s.max()-s.min()))(M(A,'2026-03').loc[M(A,'2026-03').姓名.isin(['谢梦瑶','姜雨婷'])].set_index('姓名').加班小时)", "value",
     {"expected": "谢梦瑶，多16小时", "all_of": ["谢梦瑶", "16"]}),
    ("哪个项目上的人最多？", "项目", "E,P", "NAME[one(E.groupby('当前服务项目编号').size())]", "value", {"all_of": ["区图书馆|XMSQ0102"]}),
    ("何宇航来了以后每个月到手多少？", "分组", "A", "A.loc[A.姓名=='何宇航'].set_index('年月').税后工资.to_dict()", "group", {}),
    ("保洁阿姨里谁来得最早？", "人员", "E", "E.loc[one(DT(E.loc[E.岗位名称=='保洁员','入职日期']), top=False)].姓名", "value", {}),
    ("文体中心连下面挂的子项目，合同一共多少钱？", "金额", "P", "P.loc[(P.项目编号=='XMSQ0100')|(P.上级项目编号=='XMSQ0100'),'合同金额'].sum()", "value", {"accept": ["1417.56万"]}),
    ("坏了待修的和已经报废的设备，原值加起来多少钱？", "金额", "D", "D.loc[D.完好状况.isin(['待修','报废']),'原值'].sum()", "value", {"accept": ["66.4万"]}),
    ("施桂兰2月的年假是哪天休的？", "日期", "A", "'2026-02-' + single(d for d in DAYS if M(A,'2026-02').loc[M(A,'2026-02').姓名=='施桂兰',d].iloc[0]=='年')[:-1].zfill(2)", "value", {"accept": ["2月27日"]}),
    ("4月到手过5000的保安都有谁？", "列表", "A,E", "M(A,'2026-04').loc[M(A,'2026-04').工号.isin(E.loc[" + BAOAN + ",'工号'])&(M(A,'2026-04').税后工资>5000),'姓名'].tolist()", "all", {}),
    ("4月到手最少的那个人是干啥岗位的？", "其他", "A,E", "E.loc[E.工号==M(A,'2026-04').loc[one(M(A,'2026-04').税后工资, top=False),'工号'],'岗位名称'].iloc[0]", "value", {}),
    ("续标的中标率是多少？", "比例", "T", "(T.loc[T.投标类型=='续标','中标结果']=='中标').mean()  # 3 续标, 2 中标", "value",
     {"pct": True, "accept": ["2/3", "三分之二"]}),
    ("刘德明3月加班那么多，比2月多了几个钟头？", "数量", "A", "M(A,'2026-03').loc[M(A,'2026-03').姓名=='刘德明','加班小时'].iloc[0]-M(A,'2026-02').loc[M(A,'2026-02').姓名=='刘德明','加班小时'].iloc[0]", "value", {}),
    ("夏阳社区中心那边，哪几个岗位一个人都还没到位？", "列表", "G", "G.loc[(G.项目编号=='XMSQ0125')&(G.在岗人数==0),'岗位'].tolist()", "all",
     {"all_of": ["项目经理", "保安_普保|普保", "保洁员|保洁"]}),
    ("科创大厦的保安这四个月加班一共多少个钟头？", "数量", "A,E", "A.loc[(A.项目编号=='XMSQ0112')&A.工号.isin(E.loc[" + BAOAN + ",'工号']),'加班小时'].sum()", "value", {}),
    ("王志强那几个项目，客户投诉加起来几次？", "数量", "P", "P.loc[P.项目负责人=='王志强','客户投诉'].sum()", "value", {}),
    ("严玉梅走之前最后一个月到手多少？", "金额", "A", "A.loc[A.姓名=='严玉梅'].sort_values('年月').税后工资.iloc[-1]  # 2026-02, she left 2026-02-28", "value", {}),
    ("周建国查过的检查里，有几次查的是他自己负责的项目？", "数量", "K,P", "(K.检查人工号.eq(JOB['周建国'])&K.项目编号.isin(P.loc[P.项目负责人=='周建国','项目编号'])).sum()", "value", {}),
    ("李晓峰的检查分别打了多少分？", "列表", "K", "K.loc[K.检查人工号==JOB['李晓峰'],'检查得分'].tolist()", "all", {}),
    ("服务中的项目里哪个最先到期？", "项目", "P", "P.loc[one(DT(P.loc[P.服务状态=='服务中','结束日期']), top=False)].项目名称", "value", {"all_of": ["区档案馆|XMSQ0115"]}),
    ("医院那个保洁阿姨这四个月请假加调休一共几天？", "数量", "A,E", "sum(cnt(A.loc[A.工号.isin(E.loc[(E.岗位名称=='保洁员')&(E.当前服务项目编号=='XMSQ0118'),'工号'])],c).sum() for c in " + LEAVE + ")  # 孔美玲: 事/病/年/调", "value", {}),
    ("谢梦瑶4月的工资是几号发的？", "日期", "A", "None  # no pay date (税后工资 per month only)", NONE, {}),
    ("对讲机电池买的是啥牌子？", "其他", "C", "None  # no 品牌 field in 采购与维保 (供应商名称 empty for this row)", NONE, {}),
    ("陈敏慧手上有几个项目？", "数量", "P", "None  # no 陈敏慧 (陈慧敏 exists: characters reordered)", NONE, {}),
    ("区图书馆2024年那次投标报了多少钱？", "金额", "T", "None  # XMSQ0102's only bid is 2023", NONE, {}),
    ("严玉梅走了以后谁接的她的活？", "人员", "E,S", "None  # no successor / handover field", NONE, {}),
    ("去年一整年公司一共开了多少票？", "金额", "F", "None  # 去年 = 2025; F.年月 only 2026-01..04", NONE, {}),
    ("华新片区一共几个项目、片区负责人是谁？", "人员", "Z", "None  # only 青浦片区, 徐汇片区", NONE, {}),
    ("人民医院那个标的技术分打了多少？", "数量", "T", "None  # no bid score field", NONE, {}),
]


def _finish(batch: list) -> list:
    """Apply the writer-side keys "unit" and "pct" (computed gold + unit / as a percentage) and
    drop them, so that only id, question, expected, kind, source, accept, all_of reach the files."""
    out = []
    for q, kind, frames, expr, how, extra in batch:
        extra = dict(extra)
        unit, pct = extra.pop("unit", None), extra.pop("pct", False)
        if unit or pct:
            v = eval(expr.split("  #")[0], base.NS)  # noqa: S307 - our own expressions
            if unit:
                extra["expected"] = base.fmt(v) + unit
            else:
                two, one_ = f"{float(v) * 100:.2f}%", f"{float(v) * 100:.1f}%"
                extra["expected"] = two
                extra["accept"] = [one_] + [a for a in extra.get("accept", []) if a != one_]
        out.append((q, kind, frames, expr, how, extra))
    return out


if __name__ == "__main__":
    for _b in (B37, B38, B39):
        p34._check_groups(_b)
    base.write_batches([(37, p31._months(_finish(B37))), (38, p31._months(_finish(B38))), (39, p31._months(_finish(B39)))], refusals=8)
