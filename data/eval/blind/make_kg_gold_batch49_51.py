"""Fresh blind KG batches 49-51 (issue #15, sixteenth fresh round, KG only): computes every gold answer
with pandas straight from the sample spreadsheets (data/samples/business/*.xlsx) and writes
kg_batch_{49,50,51}.jsonl next to this file. Written by a writer who did not read the engine, its
rules, the golden sets, the tests, the git history or the old batch files' questions (beyond those
quoted in README.md and held in the gold scripts this one imports, which were avoided), and who did
not run the engine, the CLI or the scorer on these questions.

Same conventions as make_kg_gold_batch46_48.py (frames P E S Z ZP F A B T G D C K Q W, `cnt`, `pid`,
`NAME`, `WHO` 工号 -> 姓名, `JOB` 姓名 -> 工号, `M(df, ym)` rows of one 年月, `one(series)` the single
index of a maximum/minimum, asserting there is no tie, `DT` = pd.to_datetime, `single(seq)` the only
element of a list, `only(series)` the only distinct value of a column). The pandas expression is kept
in each record's "source"; expected null = not in the data. Bare months mean 2026. Relative dates are
read against the KG run's ZHICE_TODAY=2026-05-01 (今年 = 2026, 去年 = 2025). Month golds are written
YYYY-MM; a 2026 month also accepts "M月" (added by make_kg_gold_batch40_42._prep); the month keys of a
per-month group answer accept either form; day golds accept "M月D日|MM-DD" (written by hand). Two-entity
comparisons (kind 比较) carry a hand-written gold "winner, difference" that `_prep` checks against the
computed (winner, difference) pair. Writer-side keys "unit", "pct", "pct1" as in
make_kg_gold_batch40_42.py (applied and dropped before writing). Group answers with a hand-written
all_of are checked by make_kg_gold_batch34_36._check_groups.

Batch 49 is worded like office / HR / finance staff, batch 50 colloquially (short project names,
啥 / 几个 / 多少钱 / 那边), batch 51 as a manager's analysis (groups, top or bottom, comparisons with the
difference, ratios, combined conditions, chains across two or three sheets).

    .venv/bin/python data/eval/blind/make_kg_gold_batch49_51.py
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kg_gold as base  # noqa: E402
import make_kg_gold_batch34_36 as p34  # noqa: E402  (_check_groups)
import make_kg_gold_batch40_42 as p40  # noqa: E402  (frames and helpers in base.NS, Q1, BAOAN, XIAYANG, ZAIZHI, job_ids, _prep)
import make_kg_gold_batch46_48 as p46  # noqa: E402,F401  (CMP, POST, ORG, LAYER, ZNAME; the previous round, imported as it imports its predecessors)

NONE = "none"  # not answerable from the spreadsheets: expected null
Q1 = p40.Q1  # 一季度 = ['2026-01','2026-02','2026-03']
BAOAN = p40.BAOAN  # 保安 = 保安_领班 + 保安_普保
XIAYANG = p40.XIAYANG
ZAIZHI = p40.ZAIZHI  # 在职 = 离职日期 empty
job_ids = p40.job_ids
CMP = p46.CMP  # (winner, difference) of a two-row series
POST = p46.POST  # 工号 -> 岗位名称
ORG = p46.ORG  # 工号 -> 组织名称
OWNER = "dict(zip(P.项目编号,P.项目负责人))"  # 项目编号 -> 项目负责人
A4 = "M(A,'2026-04')"
B4 = "M(B,'2026-04')"

B49 = [
    ("韩立新在人员信息表里登记的职级是哪一级？", "类别", "E", "E.loc[E.姓名=='韩立新','职级'].iloc[0]", "value", {}),
    ("身份证号码是310195198101192522的员工叫什么？", "人员", "E", "E.loc[E.身份证号码=='310195198101192522','姓名'].iloc[0]", "value", {}),
    ("汇总业态为市政的项目有哪几个？", "列表", "P", "P.loc[P.汇总业态=='市政','项目名称'].tolist()  # 滨江公园 (服务中), 老城厢停车场 (已结束)", "all",
     {"all_of": ["滨江公园|XMSQ0120", "老城厢停车场|XMSQ0099"]}),
    ("SB-0102-002的规格型号和安装位置分别是什么？", "其他", "D", "D.loc[D.设备编号=='SB-0102-002',['规格型号','安装位置']].iloc[0].tolist()", "all", {}),
    ("采购与维保表中，维保合同、耗材采购、固定资产三类记录的金额各合计多少？", "分组", "C", "C.loc[C.记录类型!='供应商'].groupby('记录类型').金额.sum().to_dict()", "group", {}),
    ("投标经办人为李晓峰的那次投标，投标金额是多少？", "金额", "T", "single(T.loc[T.投标经办人工号==JOB['李晓峰'],'投标金额'])  # XMSQ0112", "value", {"accept": ["585万"]}),
    ("2026年3月徐汇-科创大厦的收款金额是多少？", "金额", "F", "M(F,'2026-03').loc[M(F,'2026-03').项目编号=='XMSQ0112','收款金额'].iloc[0]", "value", {}),
    ("LED 灯管和拖把这两笔耗材采购一共花了多少钱？", "金额", "C", "C.loc[C.名称.isin(['LED 灯管','拖把']),'金额'].sum()", "value", {}),
    ("青浦-北斗园区消防安全检查发现的问题，整改完成日期是哪天？", "日期", "K", "single(K.loc[(K.项目编号=='XMSQ0152')&(K.检查类型=='消防安全检查'),'整改完成日期'])", "value",
     {"accept": ["3月22日", "03-22"]}),
    ("中标日期落在2023年的那次投标，投标金额是多少？", "金额", "T", "single(T.loc[T.中标日期.fillna('').str.startswith('2023'),'投标金额'])  # XMSQ0102 2023-12-01", "value", {"accept": ["324万"]}),
    ("设备信息表里，入项目日期为2025-01-01的设备共有几台？", "数量", "D", "(D.入项目日期=='2025-01-01').sum()  # the 6 devices of XMSQ0110", "value", {}),
    ("张凤英2月份的加班小时数是多少？", "数量", "A", "M(A,'2026-02').loc[M(A,'2026-02').姓名=='张凤英','加班小时'].iloc[0]", "value", {}),
    ("保洁员岗位的员工中，女性有几位？", "数量", "E", "((E.岗位名称=='保洁员')&(E.性别=='女')).sum()  # all six, 严玉梅 (left) included", "value", {}),
    ("续签后的青浦-北斗园区（XMSQ0152）登记的项目地址是什么？", "地址", "P", "P.loc[P.项目编号=='XMSQ0152','项目地址'].iloc[0]  # XMSQ0052 has 北斗园区路217号", "value", {}),
    ("在职的男员工里，90后有几位？", "数量", "E", "(" + ZAIZHI + "&(E.性别=='男')&E.出生日期.between('1990-01-01','1999-12-31')).sum()", "value", {}),
    ("采购与维保表中，日期在2026年1月的记录有几条？", "数量", "C", "C.日期.fillna('').str.startswith('2026-01').sum()  # 2 维保合同 + 2 耗材采购", "value", {}),
    ("请按月列出1到4月全公司考勤的上班天数合计。", "分组", "A", "A.groupby('年月').上班天数.sum().to_dict()", "group", {}),
    ("按制造厂商汇总，设备原值合计分别是多少？", "分组", "D", "D.groupby('制造厂商').原值.sum().to_dict()", "group", {}),
    ("两个管理处里，职级为P1的员工各有几人？", "分组", "E", "E.loc[E.职级=='P1'].groupby('组织名称').size().to_dict()  # 严玉梅 (left) included", "group",
     {"all_of": ["6", "13", "徐汇管理处|徐汇", "青浦管理处|青浦"]}),
    ("2023年入职的员工中，岗位是保安_普保的有哪几位？", "列表", "E", "E.loc[E.入职日期.str.startswith('2023')&(E.岗位名称=='保安_普保'),'姓名'].tolist()", "all", {}),
    ("1月份工程维修岗位的餐费合计是多少？", "金额", "A,E", "M(A,'2026-01').loc[M(A,'2026-01').工号.isin(" + job_ids('工程维修') + "),'餐费'].sum()", "value", {}),
    ("1到4月国定加班费按岗位汇总，哪个岗位最多？", "类别", "A,E", "one(A.groupby(A.工号.map(" + POST + ")).国定加班费.sum())  # 保安_普保 25156, 保安_领班 13680, others 0", "value", {}),
    ("徐汇-科创大厦1到4月中，有几个月的收款金额低于开票金额？", "数量", "F", "(lambda f: (f.收款金额<f.开票金额).sum())(F.loc[F.项目编号=='XMSQ0112'])  # 1-3月", "value", {}),
    ("青浦-工业园区每平方米合同面积对应的年化合同额是多少元？", "金额", "P", "(lambda r: r.年化合同额/r.合同面积)(P.loc[P.项目编号=='XMSQ0105'].iloc[0])", "value", {}),
    ("人员服务期表里，开始年月在2025年的记录涉及哪些项目？", "列表", "S,P", "[NAME[p] for p in S.loc[S.开始年月.str.startswith('2025'),'项目编号']]", "all",
     {"all_of": ["赵巷镇政府|XMSQ0131", "环境监测中心|XMSQ0110", "科创大厦|XMSQ0112", "人民医院|XMSQ0118", "滨江公园|XMSQ0120"]}),
    ("检查记录中，周建国作为检查人一共检查了几次？", "数量", "K", "(K.检查人工号==JOB['周建国']).sum()", "value", {}),
    ("1到4月两个管理处员工的餐费各合计多少？", "分组", "A,E", "A.groupby(A.工号.map(" + ORG + ")).餐费.sum().to_dict()", "group", {}),
    ("耗材采购金额按项目汇总，哪个项目花得最多？", "项目", "C,P", "NAME[one(C.loc[C.记录类型=='耗材采购'].groupby('项目编号').金额.sum())]  # XMSQ0118 4740; XMSQ0105 3700", "value", {"all_of": ["人民医院|XMSQ0118"]}),
    ("3月份请过事假的员工中，哪几位是项目经理？", "列表", "A,E", "M(A,'2026-03').loc[(cnt(M(A,'2026-03'),'事')>0)&M(A,'2026-03').工号.isin(" + job_ids('项目经理') + "),'姓名'].tolist()", "all", {}),
    ("1到4月加班小时一直为0的员工有哪些？", "列表", "A", "[WHO[w] for w in A.groupby('工号').加班小时.sum().loc[lambda s: s==0].index]  # the five 项目经理", "all", {}),
    ("项目经理里面谁最年轻？", "人员", "E", "E.loc[one(DT(E.loc[E.岗位名称=='项目经理','出生日期']))].姓名  # 张丽娟 1991-07-30", "value", {}),
    ("4月份排班里，客服的晚班合计排了多少个？", "数量", "B,E", "cnt(" + B4 + ".loc[" + B4 + ".工号.isin(" + job_ids('客服') + ")],'晚').sum()", "value", {}),
    ("何宇航的转正日期是哪天？", "日期", "E", "None  # no 转正 / 试用期 field (入职日期 2026-02-02 only)", NONE, {}),
    ("SB-0105-007报废后是哪天退出项目的？", "日期", "D", "None  # 退项目日期 is empty for every device, SB-0105-007 included", NONE, {}),
    ("2025年全年一共做了几次客户满意度回访？", "数量", "K", "None  # K.检查日期 only 2026-02..04", NONE, {}),
    ("韩立兴的职级是哪一级？", "类别", "E", "None  # no 韩立兴 (韩立新 exists)", NONE, {}),
    ("青浦-文化馆的合同面积是多少？", "数量", "P", "None  # no 青浦-文化馆 (徐汇-文化馆 exists)", NONE, {}),
    ("那台已经报废的空调机组原值是多少？", "金额", "D", "None  # no 空调 is 报废 (the 报废 device is SB-0105-007 2号消防水泵; 空调 完好 or 待修)", NONE, {}),
    ("4月份全公司的应发工资合计是多少？", "金额", "A", "None  # 税后工资 only; no 应发 / gross pay", NONE, {}),
    ("青浦-人民医院的物业合同里约定的违约金是多少？", "金额", "P", "None  # no penalty clause in any template", NONE, {}),
]

B50 = [
    ("体育馆那边合同比文体中心晚几个月开始？", "数量", "P", "(lambda a, b: (DT(b).year-DT(a).year)*12+DT(b).month-DT(a).month)(P.loc[P.项目编号=='XMSQ0100','开始日期'].iloc[0], P.loc[P.项目编号=='XMSQ0103','开始日期'].iloc[0])  # 2024-01-01 vs 2024-03-01", "value", {"accept": ["2个月"]}),
    ("监测中心那边合同一共签了几年？", "数量", "P", "(lambda r: round((DT(r.结束日期)-DT(r.开始日期)).days/365.25))(P.loc[P.项目编号=='XMSQ0110'].iloc[0])  # 2025-01-01..2027-12-31", "value", {"accept": ["3年"]}),
    ("金建平是哪年生的？", "日期", "E", "E.loc[E.姓名=='金建平','出生日期'].iloc[0][:4]  # 1984-05-27", "value", {"accept": ["1984-05-27"]}),
    ("科创大厦那边保洁编了几个人、现在到岗几个？", "数量", "G", "G.loc[(G.项目编号=='XMSQ0112')&(G.岗位=='保洁员'),['项目编制','在岗人数']].iloc[0].tolist()", "all",
     {"expected": "编制1人，在岗0人", "all_of": ["1", "0"]}),
    ("屋顶机房里一共放了几台设备？", "数量", "D", "(D.安装位置=='屋顶机房').sum()", "value", {}),
    ("孔美玲身份证号多少？", "其他", "E", "E.loc[E.姓名=='孔美玲','身份证号码'].iloc[0]", "value", {}),
    ("谢梦瑶这几个月加起来拿了多少加班超时费？", "金额", "A", "A.loc[A.姓名=='谢梦瑶','加班超时费'].sum()", "value", {}),
    ("戚佳怡啥时候进的公司？", "日期", "E", "E.loc[E.姓名=='戚佳怡','入职日期'].iloc[0]", "value", {"accept": ["2024年2月19日"]}),
    ("赵巷镇那边4月开了多少票？", "金额", "F", "M(F,'2026-04').loc[M(F,'2026-04').项目编号=='XMSQ0131','开票金额'].iloc[0]", "value", {}),
    ("郑晓东有啥证？", "其他", "Q", "single(Q.loc[Q.姓名=='郑晓东','证书名称'])", "value", {}),
    ("文体中心2月收了多少钱？", "金额", "F", "M(F,'2026-02').loc[M(F,'2026-02').项目编号=='XMSQ0100','收款金额'].iloc[0]", "value", {}),
    ("医院那边保安一共编了几个人？", "数量", "G", "G.loc[(G.项目编号=='XMSQ0118')&G.岗位.str.startswith('保安'),'项目编制'].sum()  # 保安_领班 1 + 保安_普保 2", "value", {}),
    ("孔美玲4月到手多少钱？", "金额", "A", "M(A,'2026-04').loc[M(A,'2026-04').姓名=='孔美玲','税后工资'].iloc[0]", "value", {}),
    ("北斗园区续标那次是谁去投的？", "人员", "T,E", "WHO[single(T.loc[(T.项目编号=='XMSQ0152')&(T.投标类型=='续标'),'投标经办人工号'])]", "value", {}),
    ("检查打分超过90分的有几次？", "数量", "K", "(K.检查得分>90).sum()  # 92, 95, 98 (90 itself not counted)", "value", {}),
    ("韩立新是党员不？", "其他", "E", "E.loc[E.姓名=='韩立新','政治面貌'].iloc[0]", "value", {"expected": "是，中共党员", "all_of": ["中共党员"]}),
    ("工业园区那俩保安，4月谁到手多？多多少？", "比较", "A,E", CMP + "(" + A4 + ".loc[(" + A4 + ".项目编号=='XMSQ0105')&" + A4 + ".工号.isin(E.loc[" + BAOAN + ",'工号'])].set_index('姓名').税后工资)  # 孙海涛 5670 vs 蒋文斌 4458.87", "value",
     {"expected": "孙海涛，多1211.13元", "all_of": ["孙海涛", "1211.13"]}),
    ("工业园区那两台电梯加起来值多少钱？", "金额", "D", "D.loc[(D.项目编号=='XMSQ0105')&(D.设备类型=='电梯'),'原值'].sum()", "value", {"accept": ["76万"]}),
    ("这四个月加起来，谁的夜班最多？", "人员", "B", "one(B.assign(n=cnt(B,'夜')).groupby('姓名').n.sum())  # 朱俊杰 32; 刘德明, 赵永刚, 韩立新 31", "value", {}),
    ("张丽娟手底下的项目，哪个客户打分最高？", "项目", "P", "P.loc[one(P.loc[P.项目负责人=='张丽娟','客户满意度'].dropna())].项目名称  # 94.3 vs 91.6; 文化馆 empty", "value", {"all_of": ["区档案馆|XMSQ0115"]}),
    ("明年合同到期的是哪几个项目？", "列表", "P", "P.loc[P.结束日期.str.startswith('2027'),'项目名称'].tolist()  # 明年 = 2027", "all",
     {"all_of": ["赵巷镇政府|XMSQ0131", "工业园区|XMSQ0105", "环境监测中心|XMSQ0110", "滨江公园|XMSQ0120"]}),
    ("李晓峰那两个项目，3月一共开了多少票？", "金额", "P,F", "M(F,'2026-03').loc[M(F,'2026-03').项目编号.isin(P.loc[P.项目负责人=='李晓峰','项目编号']),'开票金额'].sum()  # XMSQ0110 + XMSQ0112", "value", {}),
    ("客服那三个人这四个月晚班加起来多少个？", "数量", "B,E", "cnt(B.loc[B.工号.isin(" + job_ids('客服') + ")],'晚').sum()", "value", {}),
    ("现在还在职的，青浦管理处比徐汇管理处多几个人？", "比较", "E", CMP + "(E.loc[" + ZAIZHI + "].groupby('组织名称').size())  # 23 vs 10", "value",
     {"expected": "青浦管理处多13人", "all_of": ["青浦管理处|青浦", "13"]}),
    ("体育馆那边考勤上的人，4月加班超时费一共多少？", "金额", "A", A4 + ".loc[" + A4 + ".项目编号=='XMSQ0103','加班超时费'].sum()  # 冯志远 270, 施桂兰 0", "value", {}),
    ("赵巷镇那边两次检查平均几分？", "数量", "K", "K.loc[K.项目编号=='XMSQ0131','检查得分'].mean()  # 80, 92", "value", {}),
    ("人民医院那台消防水泵是哪年出厂的？", "日期", "D", "single(D.loc[(D.项目编号=='XMSQ0118')&(D.设备类型=='消防'),'出厂日期'])[:4]  # SB-0118-002 2017-05-01", "value", {"accept": ["2017-05-01"]}),
    ("北斗园区考勤上的那几个人，4月加班小时加起来多少？", "数量", "A", A4 + ".loc[" + A4 + ".项目编号=='XMSQ0152','加班小时'].sum()  # 陈慧敏 0, 郑晓东 16, 朱俊杰 16, 曹秀珍 4", "value", {}),
    ("有电工证的几个人里，谁名下一台设备都没有？", "人员", "Q,D", "single([WHO[w] for w in Q.loc[Q.证书名称=='高压电工作业','工号'] if w not in set(D.设备责任人工号)])", "value", {}),
    ("体育馆那边哪个月收的钱最少？", "日期", "F", "one(F.loc[F.项目编号=='XMSQ0103'].set_index('年月').收款金额, top=False)  # 90115.5", "value", {}),
    ("何宇航来了以后一共上了几天班？", "数量", "A", "A.loc[A.姓名=='何宇航','上班天数'].sum()  # 2月..4月", "value", {}),
    ("图书馆那边的保安4月一共几个早班？", "数量", "B,E", "cnt(" + B4 + ".loc[(" + B4 + ".项目编号=='XMSQ0102')&" + B4 + ".工号.isin(E.loc[" + BAOAN + ",'工号'])],'早').sum()  # 刘德明 + 钱国庆", "value", {}),
    ("孙海涛的驾照是哪年考的？", "日期", "E", "None  # no 驾照 field", NONE, {}),
    ("科创大厦那栋楼一共多少层？", "数量", "P", "None  # no floors field for projects", NONE, {}),
    ("魏大勇这几个月拿了多少高温费？", "金额", "A", "None  # no 高温费 item (餐费, 加班超时费, 国定加班费, 值班费, 税后工资 only)", NONE, {}),
    ("施桂芝4月上了几天班？", "数量", "A", "None  # no 施桂芝 (施桂兰 exists)", NONE, {}),
    ("徐汇那个夏阳社区中心4月收了多少钱？", "金额", "F", "None  # no 徐汇 夏阳社区中心 (青浦-夏阳街道社区中心 exists)", NONE, {}),
    ("体育馆那边管维修的师傅叫啥？", "人员", "G,E", "None  # XMSQ0103 has no 工程维修 post (G: 保安_普保, 保洁员) and no 工程维修 person", NONE, {}),
    ("工程维修那几个师傅今年一人发了几套工作服？", "数量", "C", "None  # no uniform records", NONE, {}),
    ("严玉梅3月拿了多少加班超时费？", "金额", "A", "None  # 严玉梅 left 2026-02-28: no 3月 考勤 row", NONE, {}),
]

B51 = [
    ("服务中的项目按委托方式分，合同面积各合计多少？", "分组", "P", "P.loc[P.服务状态=='服务中'].groupby('委托方式').合同面积.sum().to_dict()", "group", {}),
    ("服务中项目的实际毛利率平均是多少？", "比例", "P", "P.loc[P.服务状态=='服务中','实际毛利率'].mean()", "value", {"pct": True}),
    ("服务中项目里，酬金制和包干制的平均实际毛利率哪个高？高几个百分点？", "比较", "P", CMP + "(P.loc[P.服务状态=='服务中'].groupby('计费方式').实际毛利率.mean()*100)  # 20.15 vs 14.91", "value",
     {"expected": "酬金制，高5.24个百分点", "all_of": ["酬金制", "5.24"]}),
    ("1到4月开票金额逐月上涨的项目是哪个？", "项目", "F,P", "single([NAME[p] for p, f in F.sort_values('年月').groupby('项目编号').开票金额 if len(f)==4 and f.is_monotonic_increasing])", "value", {"all_of": ["区档案馆|XMSQ0115"]}),
    ("4月全公司收款金额占开票金额的比例是多少？", "比例", "F", A4.replace("A", "F") + ".收款金额.sum()/" + A4.replace("A", "F") + ".开票金额.sum()", "value", {"pct": True}),
    ("1到4月每个月的国定加班费合计各是多少？", "分组", "A", "A.groupby('年月').国定加班费.sum().to_dict()", "group", {}),
    ("岗位编制表按岗位统计，项目编制减在岗人数的缺口各是多少？", "分组", "G", "(G.项目编制-G.在岗人数).groupby(G.岗位).sum().to_dict()", "group",
     {"all_of": ["12", "1", "保安_普保", "保洁员", "项目经理"]}),
    ("维保合同金额占采购与维保表全部金额的百分之几？", "比例", "C", "C.loc[C.记录类型=='维保合同','金额'].sum()/C.金额.sum()", "value", {"pct": True}),
    ("有待修设备的那几个项目，4月开票合计是多少？", "金额", "D,F", A4.replace("A", "F") + ".loc[" + A4.replace("A", "F") + ".项目编号.isin(D.loc[D.完好状况=='待修','项目编号']),'开票金额'].sum()  # XMSQ0105 + XMSQ0110", "value", {}),
    ("客户投诉达到3次的项目里，还在服务中的有哪些？", "列表", "P", "P.loc[(P.客户投诉>=3)&(P.服务状态=='服务中'),'项目名称'].tolist()  # 北斗园区 XMSQ0052 and 老城厢停车场 ended", "all",
     {"all_of": ["区图书馆|XMSQ0102", "科创大厦|XMSQ0112"]}),
    ("投标记录里新标和续标各中标了几次？", "分组", "T", "T.loc[T.中标结果=='中标'].groupby('投标类型').size().to_dict()", "group", {}),
    ("工程维修和客服，4月人均税后工资谁高？高多少？", "比较", "A,E", CMP + "(" + A4 + ".groupby(" + A4 + ".工号.map(" + POST + ")).税后工资.mean()[['工程维修','客服']])  # 6091.2 vs 4782.39", "value",
     {"expected": "工程维修，高1308.81元", "all_of": ["工程维修", "1308.81"]}),
    ("1到4月全公司税后工资里，保洁员拿走的占百分之几？", "比例", "A,E", "A.loc[A.工号.isin(" + job_ids('保洁员') + "),'税后工资'].sum()/A.税后工资.sum()  # 严玉梅 (1-2月) included", "value", {"pct": True}),
    ("3月比2月，开票金额增加最多的是哪个项目？", "项目", "F,P", "NAME[one((M(F,'2026-03').set_index('项目编号').开票金额-M(F,'2026-02').set_index('项目编号').开票金额).dropna())]  # 8059.71; 工业园区 7732.04", "value", {"all_of": ["滨江公园|XMSQ0120"]}),
    ("1到4月里，全公司开票合计最高的那个月比最低的那个月多开了多少？", "金额", "F", "(lambda s: s.max()-s.min())(F.groupby('年月').开票金额.sum())  # 3月 1475861.76 - 1月 1442333.31", "value", {}),
    ("在职员工里中共党员占多大比例？", "比例", "E", "(" + ZAIZHI + "&(E.政治面貌=='中共党员')).sum()/" + ZAIZHI + ".sum()  # 10 / 33", "value", {"pct": True}),
    ("4月保安和保洁员的人均加班小时，哪个岗位高？高多少？", "比较", "A,E", CMP + "(" + A4 + ".groupby(" + A4 + ".工号.map(lambda w: '保安' if " + POST + "[w].startswith('保安') else " + POST + "[w])).加班小时.mean()[['保安','保洁员']])  # 8.57 vs 4", "value",
     {"expected": "保安，高4.57小时", "all_of": ["保安", "4.57"]}),
    ("客户满意度不到90分的服务中项目，客户投诉加起来几次？", "数量", "P", "P.loc[(P.客户满意度<90)&(P.服务状态=='服务中'),'客户投诉'].sum()  # 区图书馆 3, 体育馆 1, 北斗园区 1, 环境监测中心 1", "value", {}),
    ("服务中项目里实际毛利率最高的那个，1到4月开票一共多少？", "金额", "P,F", "F.loc[F.项目编号==P.loc[one(P.loc[P.服务状态=='服务中','实际毛利率'])].项目编号,'开票金额'].sum()  # XMSQ0105", "value", {}),
    ("年化合同额最高的项目，它的项目负责人4月税后工资是多少？", "金额", "P,A", A4 + ".loc[" + A4 + ".姓名==P.loc[one(P.年化合同额)].项目负责人,'税后工资'].iloc[0]  # XMSQ0118 -> 王志强", "value", {}),
    ("按项目负责人汇总服务中项目4月的开票金额，谁的最少？", "人员", "P,F", "one(" + A4.replace("A", "F") + ".loc[" + A4.replace("A", "F") + ".项目编号.isin(P.loc[P.服务状态=='服务中','项目编号'])].groupby(" + A4.replace("A", "F") + ".项目编号.map(" + OWNER + ")).开票金额.sum(), top=False)  # 张丽娟 149987.98", "value", {}),
    ("按设备类型统计，每类设备的平均原值是多少？", "分组", "D", "D.groupby('设备类型').原值.mean().to_dict()", "group", {}),
    ("持证员工里青浦管理处的人，1到4月加班小时一共多少？", "数量", "Q,E,A", "A.loc[A.工号.isin(E.loc[E.工号.isin(Q.工号)&(E.组织名称=='申勤物业青浦管理处'),'工号']),'加班小时'].sum()", "value", {}),
    ("北斗园区续签后的年化合同额比上一期涨了百分之几？", "比例", "P", "(lambda n: n.年化合同额/P.loc[P.项目编号==n.续签前项目编号,'年化合同额'].iloc[0]-1)(P.loc[P.项目编号=='XMSQ0152'].iloc[0])  # 1680000 / 1560000", "value", {"pct": True}),
    ("3月按岗位算人均上班天数，哪个岗位最多？", "类别", "A,E", "one(M(A,'2026-03').groupby(M(A,'2026-03').工号.map(" + POST + ")).上班天数.mean())  # 保安_领班 23.25", "value", {}),
    ("1到4月徐汇区项目的收款合计占全公司收款的百分之几？", "比例", "F,P", "F.loc[F.项目编号.isin(P.loc[P.市区=='徐汇区','项目编号']),'收款金额'].sum()/F.收款金额.sum()", "value", {"pct": True}),
    ("1到4月排班里早班合计最多的是谁？", "人员", "B", "one(B.assign(n=cnt(B,'早')).groupby('姓名').n.sum())  # 戚佳怡 47, 姜雨婷 46", "value", {}),
    ("4月税后工资最高的保安，是哪个项目上的？", "项目", "A,E,P", "NAME[" + A4 + ".loc[one(" + A4 + ".loc[" + A4 + ".工号.isin(E.loc[" + BAOAN + ",'工号']),'税后工资'])].项目编号]", "value", {"all_of": ["科创大厦|XMSQ0112"]}),
    ("一季度收款合计排前两名的项目各收了多少？", "分组", "F,P", "[x for p, v in F.loc[F.年月.isin(" + Q1 + ")].groupby('项目编号').收款金额.sum().nlargest(2).items() for x in (NAME[p], v)]  # third XMSQ0105 509444.59", "all",
     {"expected": "青浦-人民医院 792506.54；青浦-文体中心 584270.92", "all_of": ["人民医院|XMSQ0118", "792506.54", "文体中心|XMSQ0100", "584270.92"]}),
    ("名下有设备的人当中，谁管的设备平均原值最高？", "人员", "D,E", "WHO[one(D.groupby('设备责任人工号').原值.mean())]", "value", {}),
    ("2月份有人请假（事病年调都算）的项目，一共几个？", "数量", "A", "M(A,'2026-02').loc[sum(cnt(M(A,'2026-02'),c) for c in " + p40.LEAVE + ")>0,'项目编号'].nunique()", "value", {}),
    ("4月保安_普保里税后工资最高的和最低的差多少？", "金额", "A,E", "(lambda s: s.max()-s.min())(" + A4 + ".loc[" + A4 + ".工号.isin(" + job_ids('保安_普保') + "),'税后工资'])  # 韩立新 4759.74 - 杨振华 4168.55", "value", {}),
    ("各项目经理今年的考评等级分别是什么？", "其他", "E", "None  # no appraisal field", NONE, {}),
    ("4月各项目应收未收款里，账龄超过90天的有多少？", "金额", "F", "None  # monthly 开票/收款 totals only; no ageing", NONE, {}),
    ("保安_领班和保安_普保的岗位工资标准各是多少？", "金额", "W,A", "None  # no pay scale (税后工资 per person-month only)", NONE, {}),
    ("XMSQ0128项目1到4月开票合计多少？", "金额", "F", "None  # no XMSQ0128 (XMSQ0125, XMSQ0130 exist)", NONE, {}),
    ("1到4月各项目分别开了多少张发票？", "数量", "F", "None  # monthly 开票金额 totals only; no invoice count", NONE, {}),
    ("徐汇片区里按酬金制计费的项目，4月开票合计多少？", "金额", "ZP,P,F", "None  # premise wrong: 徐汇片区 has no 酬金制 project (酬金制: XMSQ0052, XMSQ0152, XMSQ0105, all 青浦)", NONE, {}),
    ("孙海涛做的那几次检查平均打了几分？", "数量", "K", "None  # premise wrong: 孙海涛 is no 检查人 (周建国, 李晓峰 only)", NONE, {}),
    ("1到4月的检查平均每次花了多长时间？", "数量", "K", "None  # no duration field (检查日期 only)", NONE, {}),
]

BATCHES = [(49, B49), (50, B50), (51, B51)]

if __name__ == "__main__":
    for _n, _b in BATCHES:
        p34._check_groups(_b)
    base.write_batches([(n, p40._prep(b)) for n, b in BATCHES], refusals=8)
