"""Fresh blind KG batches 43-45 (issue #15, fourteenth fresh round, KG only): computes every gold answer
with pandas straight from the sample spreadsheets (data/samples/business/*.xlsx) and writes
kg_batch_{43,44,45}.jsonl next to this file. Written by a writer who did not read the engine, its
rules, the golden sets, the tests, the git history or the old batch files' questions (beyond those
quoted in README.md and held in the gold scripts this one imports, which were avoided), and who did
not run the engine, the CLI or the scorer on these questions.

Same conventions as make_kg_gold_batch40_42.py (frames P E S Z ZP F A B T G D C K Q W, `cnt`, `pid`,
`NAME`, `WHO` 工号 -> 姓名, `JOB` 姓名 -> 工号, `M(df, ym)` rows of one 年月, `one(series)` the single
index of a maximum/minimum, asserting there is no tie, `DT` = pd.to_datetime, `single(seq)` the only
element of a list, `only(series)` the only distinct value of a column). The pandas expression is kept
in each record's "source"; expected null = not in the data. Bare months mean 2026. Relative dates are
read against the KG run's ZHICE_TODAY=2026-05-01: 今年 = 2026, 去年 = 2025, 一季度 = 2026-01..03; ages
are counted on 2026-05-01. Month golds are written 2026-MM and also accept "M月"; the month keys of a
per-month group answer accept either form; day golds accept "M月D日" (written by hand). Two-entity
comparisons (kind 比较) carry a hand-written gold "winner, difference" that make_kg_gold_batch40_42._prep
checks against the computed (winner, difference) pair. Writer-side keys "unit", "pct", "pct1" as in
make_kg_gold_batch40_42.py (applied and dropped before writing).

    .venv/bin/python data/eval/blind/make_kg_gold_batch43_45.py
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kg_gold as base  # noqa: E402
import make_kg_gold_batch34_36 as p34  # noqa: E402  (job_ids, ZAIZHI, _check_groups)
import make_kg_gold_batch40_42 as p40  # noqa: E402  (frames and helpers in base.NS, Q1, BAOAN, LEAVE, _prep)

NONE = "none"  # not answerable from the spreadsheets: expected null
Q1 = p40.Q1  # 一季度 = ['2026-01','2026-02','2026-03']
BAOAN = p40.BAOAN  # 保安 = 保安_领班 + 保安_普保
XIAYANG = p40.XIAYANG
ZAIZHI = p40.ZAIZHI  # 在职 = 离职日期 empty
job_ids = p40.job_ids
CMP = "(lambda s: (s.idxmax(), s.max()-s.min()))"  # (winner, difference) of a two-row series
POST = "dict(zip(E.工号,E.岗位名称))"
ORG = "dict(zip(E.工号,E.组织名称))"

B43 = [
    ("青浦-体育馆的项目地址在哪里？", "地址", "P", "P.loc[P.项目编号=='XMSQ0103','项目地址'].iloc[0]", "value", {}),
    ("李晓峰的职级是哪一级？", "类别", "E", "E.loc[E.姓名=='李晓峰','职级'].iloc[0]", "value", {}),
    ("青浦-夏阳街道社区中心是什么细分业态、什么计费方式？", "类别", "P", "P.loc[P.项目编号=='XMSQ0125',['细分业态','计费方式']].iloc[0].tolist()", "all", {}),
    ("SB-0118-003这台设备安装在什么位置？", "其他", "D", "D.loc[D.设备编号=='SB-0118-003','安装位置'].iloc[0]", "value", {}),
    ("中央空调维保那份合同的合同年限是几年？", "数量", "C", "C.loc[C.名称=='中央空调维保','合同年限'].iloc[0]", "value", {"unit": "年"}),
    ("徐汇管理处的女员工有几位（已离职的也算）？", "数量", "E", "((E.组织名称=='申勤物业徐汇管理处')&(E.性别=='女')).sum()  # 张丽娟 张凤英 严玉梅 戚佳怡", "value", {}),
    ("客服岗位1到4月的餐费合计是多少？", "金额", "A,E", "A.loc[A.工号.isin(" + job_ids('客服') + "),'餐费'].sum()", "value", {}),
    ("徐汇-环境监测中心各岗位的标准工时人数合计是多少？", "数量", "G", "G.loc[G.项目编号=='XMSQ0110','标准工时人数'].sum()", "value", {}),
    ("共青团员当中，还在职的女同事有几位？", "数量", "E", "(" + ZAIZHI + "&(E.性别=='女')&(E.政治面貌=='共青团员')).sum()  # 施桂兰 张凤英 戚佳怡 (严玉梅 left)", "value", {}),
    ("投标金额不到100万元的是哪几次投标？分别是哪个项目？", "列表", "T,P", "[NAME[p] for p in T.loc[T.投标金额<1000000,'项目编号']]  # 840000 (XMSQ0125), 950000 (XMSQ0099); next 1840000", "all",
     {"all_of": [XIAYANG, "老城厢停车场|XMSQ0099"]}),
    ("康明斯的柴油发电机原值一共是多少？", "金额", "D", "D.loc[D.制造厂商=='康明斯','原值'].sum()  # SB-0105-005, SB-0110-005", "value", {"accept": ["84万"]}),
    ("检查记录里整改情况为已整改的共有几条？", "数量", "K", "(K.整改情况=='已整改').sum()", "value", {}),
    ("2月份做的检查平均得了多少分？", "数量", "K", "K.loc[K.检查日期.str.startswith('2026-02'),'检查得分'].mean()  # 80, 80, 95, 84", "value", {}),
    ("项目月度财务表上的财务经办人是哪位？", "人员", "F,E", "WHO[only(F.财务经办人工号)]", "value", {}),
    ("4月项目经理的税后工资合计是多少？", "金额", "A,E", "M(A,'2026-04').loc[M(A,'2026-04').工号.isin(" + job_ids('项目经理') + "),'税后工资'].sum()", "value", {}),
    ("监控硬盘录像机的采购单价是多少？", "金额", "C", "C.loc[C.名称=='监控硬盘录像机','单价'].iloc[0]", "value", {}),
    ("已经结束的项目中，哪个合同面积最大？", "项目", "P", "P.loc[one(P.loc[P.服务状态=='已结束','合同面积'])].项目名称  # XMSQ0052 56000; XMSQ0031 15000, XMSQ0099 8000", "value",
     {"all_of": ["北斗园区|XMSQ0052"]}),
    ("客服人员里，1到4月累计加班时间最长的是谁？", "人员", "A,E", "one(A.loc[A.工号.isin(" + job_ids('客服') + ")].groupby('姓名').加班小时.sum())  # 谢梦瑶 44, 姜雨婷 20, 戚佳怡 16", "value", {}),
    ("在职员工按职级统计，每个职级各有多少人？", "分组", "E", "E.loc[" + ZAIZHI + "].groupby('职级').size().to_dict()", "group", {}),
    ("按安装位置统计，每个位置各装了几台设备？", "分组", "D", "D.groupby('安装位置').size().to_dict()", "group", {}),
    ("一季度徐汇-区档案馆累计收款多少？", "金额", "F", "F.loc[(F.项目编号=='XMSQ0115')&F.年月.isin(" + Q1 + "),'收款金额'].sum()", "value", {}),
    ("刘德明2月和3月的加班小时加起来是多少？", "数量", "A", "A.loc[(A.姓名=='刘德明')&A.年月.isin(['2026-02','2026-03']),'加班小时'].sum()", "value", {}),
    ("周建国和李晓峰，4月谁的税后工资更高？高多少？", "比较", "A", CMP + "(M(A,'2026-04').loc[M(A,'2026-04').姓名.isin(['周建国','李晓峰'])].groupby('姓名').税后工资.sum())", "value",
     {"expected": "周建国，高418.88元", "all_of": ["周建国", "418.88"]}),
    ("青浦-区图书馆和青浦-体育馆，一季度谁的开票金额更多？多多少？", "比较", "F", CMP + "(F.loc[F.项目编号.isin(['XMSQ0102','XMSQ0103'])&F.年月.isin(" + Q1 + ")].groupby(F.项目编号.map(NAME)).开票金额.sum())", "value",
     {"expected": "青浦-体育馆，多58860.09元", "all_of": ["体育馆", "58860.09"]}),
    ("4月税后工资超过6000元的有哪些人？", "列表", "A", "M(A,'2026-04').loc[M(A,'2026-04').税后工资>6000,'姓名'].tolist()  # next below: 金建平 5904.07", "all", {}),
    ("工程维修人员里，谁没有消防设施操作员证？", "人员", "E,Q", "E.loc[(E.岗位名称=='工程维修')&~E.工号.isin(Q.loc[Q.证书名称.str.startswith('消防设施操作员'),'工号']),'姓名'].tolist()", "all", {}),
    ("有没有设备装在屋顶机房？是哪几台？", "设备", "D", "D.loc[D.安装位置=='屋顶机房','设备编号'].tolist()", "all", {}),
    ("魏大勇1月排了几个全天班？", "数量", "B", "cnt(M(B,'2026-01').loc[M(B,'2026-01').姓名=='魏大勇'],'全').iloc[0]", "value", {}),
    ("1月考勤里休过年假的有哪几位？", "列表", "A", "M(A,'2026-01').loc[cnt(M(A,'2026-01'),'年')>0,'姓名'].tolist()", "all", {}),
    ("徐汇-科创大厦的保安领班联系电话是多少？", "电话", "E", "single(E.loc[(E.岗位名称=='保安_领班')&(E.当前服务项目编号=='XMSQ0112'),'联系电话'])  # 吴建华", "value", {}),
    ("设备台数最多的那个项目，项目负责人是谁？", "人员", "D,P", "P.loc[P.项目编号==one(D.groupby('项目编号').size()),'项目负责人'].iloc[0]  # XMSQ0105 8 devices; XMSQ0110 6", "value", {}),
    ("合同金额最大的那个项目属于哪个片区？片区负责人是谁？", "人员", "P,ZP,Z,E", "(lambda p: (lambda z: [Z.set_index('片区编号').片区名称[z], WHO[Z.set_index('片区编号').片区负责人工号[z]]])(single(ZP.loc[ZP.项目编号==p,'片区编号'])))(P.loc[one(P.合同金额),'项目编号'])  # XMSQ0118", "all", {}),
    ("徐汇-科创大厦的合同金额折合多少美元？", "金额", "P", "None  # 合同金额 in 元 only; no exchange rate in any template", NONE, {}),
    ("郑晓东当初为什么从赵巷镇政府调走？", "其他", "S", "None  # 人员服务期 备注 says only 调岗 / 调入; no reason", NONE, {}),
    ("周建国的直属上级是谁？", "人员", "E", "None  # no reporting line (上级) field for people; 上级项目编号 is for projects", NONE, {}),
    ("青浦-体育馆那份合同里的增值税是多少钱？", "金额", "P", "None  # no tax rate / tax amount (口径 含税 is on 月度财务 only)", NONE, {}),
    ("检查得分达到多少分才算合格？", "数量", "K", "None  # scores only; no pass mark or standard", NONE, {}),
    ("青浦-工业园区那台待修的空调机组出的是什么故障？", "其他", "D", "None  # 完好状况 待修 only; no fault description for devices", NONE, {}),
    ("北斗园区新一期比上一期多了哪些服务内容？", "其他", "P", "None  # no service-scope field; the two periods differ only in 合同金额, 年化合同额, 地址, 满意度 …", NONE, {}),
    ("公司一共有多少台对讲机？", "数量", "D,C", "None  # 设备信息 has no 对讲机; 采购 holds 对讲机电池 only", NONE, {}),
]

B44 = [
    ("徐汇-滨江公园归在哪个汇总业态下？", "类别", "P", "P.loc[P.项目编号=='XMSQ0120','汇总业态'].iloc[0]", "value", {}),
    ("邹红梅的出生日期是哪一天？", "日期", "E", "E.loc[E.姓名=='邹红梅','出生日期'].iloc[0]", "value", {"accept": ["1985年4月4日"]}),
    ("SB-0110-005的出厂日期和启用日期各是哪天？", "日期", "D", "D.loc[D.设备编号=='SB-0110-005',['出厂日期','启用日期']].iloc[0].tolist()", "all", {}),
    ("采购与维保表里，2026年3月发生的是哪几笔？", "列表", "C", "C.loc[C.日期.str.startswith('2026-03'),'名称'].tolist()", "all",
     {"all_of": ["LED灯管|LED 灯管", "对讲机电池", "监控硬盘录像机"]}),
    ("维保合同里合同年限最长的是哪一份？", "其他", "C", "C.loc[one(C.loc[C.记录类型=='维保合同','合同年限'])].名称  # 2 years; the others 1", "value", {}),
    ("餐费这一项，1月份全公司一共支出多少？", "金额", "A", "M(A,'2026-01').餐费.sum()", "value", {}),
    ("保安_普保2月的人均加班小时是多少？", "数量", "A,E", "M(A,'2026-02').loc[M(A,'2026-02').工号.isin(" + job_ids('保安_普保') + "),'加班小时'].mean()", "value", {}),
    ("中共党员里女性有几位？", "数量", "E", "((E.政治面貌=='中共党员')&(E.性别=='女')).sum()  # 陈慧敏, 邹红梅", "value", {}),
    ("所有项目的预算编制加总是多少？", "数量", "G", "G.预算编制.sum()", "value", {}),
    ("中标日期在2025年下半年的是哪几个项目？", "列表", "T,P", "[NAME[p] for p in T.loc[T.中标日期.between('2025-07-01','2025-12-31'),'项目编号']]  # 2025-11-20, 2025-10-28 (2025-06-10 is in the first half)", "all",
     {"all_of": ["北斗园区|XMSQ0152", "科创大厦|XMSQ0112"]}),
    ("完好状况为完好的设备，原值合计是多少？", "金额", "D", "D.loc[D.完好状况=='完好','原值'].sum()", "value", {"accept": ["555万"]}),
    ("检查人是李晓峰的检查记录有几条？", "数量", "K", "(K.检查人工号==JOB['李晓峰']).sum()", "value", {}),
    ("持有物业管理师证书的有几个人？", "数量", "Q", "Q.loc[Q.证书名称=='物业管理师','工号'].nunique()", "value", {}),
    ("客服这个岗位，3月份人均税后工资多少？", "金额", "A,E", "M(A,'2026-03').loc[M(A,'2026-03').工号.isin(" + job_ids('客服') + "),'税后工资'].mean()", "value", {}),
    ("整改完成日期在3月份的检查有几条？", "数量", "K", "K.整改完成日期.str.startswith('2026-03').sum()  # 2026-03-19, 2026-03-22", "value", {}),
    ("加班超时费是按每小时多少钱计算的？", "金额", "A", "only(A.loc[A.加班小时>0,'加班超时费']/A.loc[A.加班小时>0,'加班小时'])  # the same rate on every row", "value", {"unit": "元"}),
    ("4月开票和收款差额最大的是哪个项目？差了多少？", "项目", "F", "(lambda f: [NAME[f.loc[one(f.开票金额-f.收款金额)].项目编号], (f.开票金额-f.收款金额).max()])(M(F,'2026-04'))  # XMSQ0118 55771.30; next XMSQ0105 18031.36", "all",
     {"all_of": ["人民医院|XMSQ0118", "55771.3"]}),
    ("单月开票金额最高的是哪个项目、哪个月？", "项目", "F", "(lambda r: [NAME[r.项目编号], r.年月])(F.loc[one(F.开票金额)])", "all",
     {"all_of": ["人民医院|XMSQ0118", "2026-04|4月"]}),
    ("按投标类型汇总，每一类的投标金额合计各是多少？", "分组", "T", "T.groupby('投标类型').投标金额.sum().to_dict()", "group", {}),
    ("把4月的税后工资按员工所属管理处加总，各是多少？", "分组", "A,E", "M(A,'2026-04').groupby(M(A,'2026-04').工号.map(" + ORG + ")).税后工资.sum().to_dict()", "group",
     {"all_of": ["60513.64", "115715.35", "徐汇管理处|徐汇", "青浦管理处|青浦"]}),
    ("一季度保洁员的加班超时费合计是多少？", "金额", "A,E", "A.loc[A.年月.isin(" + Q1 + ")&A.工号.isin(" + job_ids('保洁员') + "),'加班超时费'].sum()  # 严玉梅 (2026-01..02) included", "value", {}),
    ("徐汇-滨江公园4月的开票金额比3月少了多少？", "金额", "F", "(lambda f: f['2026-03']-f['2026-04'])(F.loc[F.项目编号=='XMSQ0120'].set_index('年月').开票金额)", "value", {}),
    ("比较吕秀英与施桂兰前四个月的累计加班时长，哪位更长、长多少？", "比较", "A", CMP + "(A.loc[A.姓名.isin(['吕秀英','施桂兰'])].groupby('姓名').加班小时.sum())", "value",
     {"expected": "吕秀英，长12小时", "all_of": ["吕秀英", "12"]}),
    ("服务中的项目，青浦区和徐汇区哪个区的年化合同额合计更高？高多少？", "比较", "P", CMP + "(P.loc[P.服务状态=='服务中'].groupby('市区').年化合同额.sum())", "value",
     {"expected": "青浦区，高8640000元", "all_of": ["青浦区|青浦", "8640000|864万"]}),
    ("服务中的项目里，客户满意度不低于93分的有哪些？", "列表", "P", "P.loc[(P.服务状态=='服务中')&(P.客户满意度>=93),'项目名称'].tolist()  # 95.7, 93.6, 94.0, 94.3, 98.0; next below 92.8", "all",
     {"all_of": ["文体中心|XMSQ0100", "赵巷镇政府|XMSQ0131", "科创大厦|XMSQ0112", "区档案馆|XMSQ0115", "人民医院|XMSQ0118"]}),
    ("服务中的项目里，哪些在设备信息表里一台设备都没有？", "列表", "P,D", "P.loc[(P.服务状态=='服务中')&~P.项目编号.isin(D.项目编号),'项目名称'].tolist()", "all",
     {"all_of": ["文体中心|XMSQ0100", "体育馆|XMSQ0103", "北斗园区|XMSQ0152", "赵巷镇政府|XMSQ0131", "科创大厦|XMSQ0112", "区档案馆|XMSQ0115", "滨江公园|XMSQ0120", XIAYANG]}),
    ("项目经理当中，这四个月里谁休过年假？", "人员", "A,E", "A.loc[A.工号.isin(" + job_ids('项目经理') + ")&(cnt(A,'年')>0),'姓名'].unique().tolist()", "all", {}),
    ("谢梦瑶3月排了几个晚班？", "数量", "B", "cnt(M(B,'2026-03').loc[M(B,'2026-03').姓名=='谢梦瑶'],'晚').iloc[0]", "value", {}),
    ("1月1日考勤标记为“加”的员工有哪些？", "列表", "A", "M(A,'2026-01').loc[M(A,'2026-01')['1日']=='加','姓名'].tolist()", "all", {}),
    ("SB-0105-001这台客梯是哪家公司在做维保？", "单位", "D,C", "single(C.loc[(C.记录类型=='维保合同')&(C.项目编号==D.loc[D.设备编号=='SB-0105-001','项目编号'].iloc[0])&(C.类别==D.loc[D.设备编号=='SB-0105-001','设备类型'].iloc[0]),'供应商名称'])", "value", {}),
    ("区档案馆那次客户满意度回访的检查人，自己负责哪几个项目？", "列表", "K,E,P", "P.loc[P.项目负责人==WHO[single(K.loc[(K.项目编号=='XMSQ0115')&(K.检查类型=='客户满意度回访'),'检查人工号'])],'项目名称'].tolist()  # 李晓峰", "all",
     {"all_of": ["环境监测中心|XMSQ0110", "科创大厦|XMSQ0112"]}),
    ("杨振华2月所在项目的项目负责人是哪年入职的？", "日期", "A,P,E", "E.loc[E.姓名==P.loc[P.项目编号==single(M(A,'2026-02').loc[M(A,'2026-02').姓名=='杨振华','项目编号']),'项目负责人'].iloc[0],'入职日期'].iloc[0]  # XMSQ0131 -> 陈慧敏", "value",
     {"expected": "2019年（2019-05-13）", "all_of": ["2019"]}),
    ("青浦-人民医院附近有几个地铁站？", "数量", "P", "None  # 项目地址 only; no transport / map data", NONE, {}),
    ("赵巷镇政府那次消防安全检查被罚了多少钱？", "金额", "K", "None  # 检查记录 has no penalty / fine column", NONE, {}),
    ("3月北斗园区的保安里谁被客户投诉过？", "人员", "P,E", "None  # 客户投诉 is a per-project count; no complaint is tied to a person", NONE, {}),
    ("4月开出去的发票里有几张作废了？", "数量", "F", "None  # 月度财务 holds monthly 开票 totals; no invoice-level records", NONE, {}),
    ("徐汇-滨江公园里一共种了多少棵树？", "数量", "P,D", "None  # no planting / greenery inventory", NONE, {}),
    ("何宇航入职时是谁面试的？", "人员", "E", "None  # no recruitment / interview records", NONE, {}),
    ("项目经理的业绩提成比例是多少？", "比例", "A,E", "None  # no commission item or rate in 考勤与人员财务", NONE, {}),
    ("徐汇-科创大厦的保洁外包给了哪家公司？", "单位", "P,C", "None  # no subcontractor field; 委托方式 全委 is the client's entrustment of us; 采购 suppliers are for goods / 维保", NONE, {}),
]

B45 = [
    ("洗地机是哪天买的？", "日期", "C", "C.loc[C.名称=='洗地机','日期'].iloc[0]", "value", {"accept": ["2月20日"]}),
    ("曹秀珍今年多大了？", "数量", "E", "(lambda b: 2026-b.year-((5, 1) < (b.month, b.day)))(DT(E.loc[E.姓名=='曹秀珍','出生日期'].iloc[0]))  # born 1973-09-30; age on 2026-05-01", "value",
     {"unit": "岁", "accept": ["52周岁"]}),
    ("档案馆那边的保洁阿姨叫啥？", "人员", "E", "single(E.loc[(E.岗位名称=='保洁员')&(E.当前服务项目编号=='XMSQ0115'),'姓名'])", "value", {}),
    ("工业园区那两台空调值多少钱？", "金额", "D", "D.loc[(D.项目编号=='XMSQ0105')&(D.设备类型=='空调'),'原值'].sum()  # 2 × 540000", "value", {"accept": ["108万"]}),
    ("体育馆那边驻场的都有谁？", "列表", "E", "E.loc[E.当前服务项目编号=='XMSQ0103','姓名'].tolist()", "all", {}),
    ("搞采购的那位电话多少？", "电话", "E", "single(E.loc[E.岗位名称=='采购专员','联系电话'])  # 喻志华", "value", {}),
    ("3月大伙加班一共加了多少个钟头？", "数量", "A", "M(A,'2026-03').加班小时.sum()", "value", {}),
    ("2月保安们一共拿了多少国定加班费？", "金额", "A,E", "M(A,'2026-02').loc[M(A,'2026-02').工号.isin(E.loc[" + BAOAN + ",'工号']),'国定加班费'].sum()", "value", {}),
    ("咱公司有几个00后？", "数量", "E", "(E.出生日期>='2000-01-01').sum()  # 何宇航 2000-05-05, 谢梦瑶 2001-12-24", "value", {}),
    ("赵巷镇政府上一期合同一年合多少钱？", "金额", "P", "P.loc[P.项目编号=='XMSQ0031','年化合同额'].iloc[0]  # the ended period (XMSQ0131 is 续签 of it)", "value", {"accept": ["86万"]}),
    ("消防设施维保那份合同平均一年多少钱？", "金额", "C", "(lambda r: r.金额/r.合同年限)(C.loc[C.名称=='消防设施维保'].iloc[0])  # 36000 over 2 years", "value", {"accept": ["1.8万"]}),
    ("2号客梯都在哪几个项目？", "列表", "D,P", "[NAME[p] for p in D.loc[D.设备名称=='2号客梯','项目编号']]", "all",
     {"all_of": ["工业园区|XMSQ0105", "环境监测中心|XMSQ0110"]}),
    ("LED灯管一根多少钱？", "金额", "C", "C.loc[C.名称=='LED 灯管','单价'].iloc[0]", "value", {}),
    ("戚佳怡3月拿到手多少？", "金额", "A", "M(A,'2026-03').loc[M(A,'2026-03').姓名=='戚佳怡','税后工资'].iloc[0]", "value", {}),
    ("冯志远2月出了几天勤？", "数量", "A", "M(A,'2026-02').loc[M(A,'2026-02').姓名=='冯志远','上班天数'].iloc[0]", "value", {}),
    ("北斗园区这期合同哪年到期？", "日期", "P", "P.loc[P.项目编号=='XMSQ0152','结束日期'].iloc[0]  # the serving period", "value", {"accept": ["2028年12月31日", "2028年"]}),
    ("保洁阿姨里头谁最年轻？", "人员", "E", "E.loc[one(DT(E.loc[E.岗位名称=='保洁员','出生日期']))].姓名  # 1977-04-14; next 严玉梅 1976-06-21 (left)", "value", {}),
    ("保安里谁岁数最大？", "人员", "E", "E.loc[one(DT(E.loc[" + BAOAN + ",'出生日期']), top=False)].姓名  # 1975-01-23; next 1978-07-07", "value", {}),
    ("哪些岗位还缺人？各缺几个？", "分组", "G", "(lambda g: g[g>0].to_dict())(G.assign(q=G.项目编制-G.在岗人数).groupby('岗位').q.sum())  # 项目编制 − 在岗人数 over all projects", "group", {}),
    ("每个月的加班超时费一共发了多少？", "分组", "A", "A.groupby('年月').加班超时费.sum().to_dict()", "group", {}),
    ("一季度谢梦瑶一共到手多少钱？", "金额", "A", "A.loc[(A.姓名=='谢梦瑶')&A.年月.isin(" + Q1 + "),'税后工资'].sum()", "value", {}),
    ("何宇航进公司以来一共加了几个钟头的班？", "数量", "A", "A.loc[A.姓名=='何宇航','加班小时'].sum()  # rows 2026-02..04 (joined 2026-02-02)", "value", {}),
    ("文体中心跟工业园区，1月谁开的票多？多多少？", "比较", "F", CMP + "(M(F,'2026-01').loc[M(F,'2026-01').项目编号.isin(['XMSQ0100','XMSQ0105'])].groupby(M(F,'2026-01').项目编号.map(NAME)).开票金额.sum())", "value",
     {"expected": "青浦-文体中心，多15017.72元", "all_of": ["文体中心", "15017.72"]}),
    ("吴建华跟赵永刚，这四个月谁到手的多？多多少？", "比较", "A", CMP + "(A.loc[A.姓名.isin(['吴建华','赵永刚'])].groupby('姓名').税后工资.sum())", "value",
     {"expected": "吴建华，多1305.98元", "all_of": ["吴建华", "1305.98"]}),
    ("4月加班超过12个钟头的都有谁？", "列表", "A", "M(A,'2026-04').loc[M(A,'2026-04').加班小时>12,'姓名'].tolist()  # 16 h each; several at 12", "all", {}),
    ("服务中的项目里，哪几个一次检查都没做过？", "列表", "P,K", "P.loc[(P.服务状态=='服务中')&~P.项目编号.isin(K.项目编号),'项目名称'].tolist()", "all",
     {"all_of": ["文体中心|XMSQ0100", "人民医院|XMSQ0118", "滨江公园|XMSQ0120", XIAYANG]}),
    ("2月搞工程维修的有人请事假没？谁？", "人员", "A,E", "M(A,'2026-02').loc[M(A,'2026-02').工号.isin(" + job_ids('工程维修') + ")&(cnt(M(A,'2026-02'),'事')>0),'姓名'].tolist()", "all", {}),
    ("金建平2月排了几个全天班？", "数量", "B", "cnt(M(B,'2026-02').loc[M(B,'2026-02').姓名=='金建平'],'全').iloc[0]", "value", {}),
    ("孔美玲3月哪天调的休？", "日期", "A", "[d for d in DAYS if M(A,'2026-03').loc[M(A,'2026-03').姓名=='孔美玲',d].iloc[0]=='调']", "all",
     {"expected": "3月20日", "all_of": ["3月20日|03-20|20日"]}),
    ("人民医院那台空调是谁在管？电话多少？", "电话", "D,E", "(lambda w: [WHO[w], E.loc[E.工号==w,'联系电话'].iloc[0]])(single(D.loc[(D.项目编号=='XMSQ0118')&(D.设备类型=='空调'),'设备责任人工号']))", "all", {}),
    ("许建军待的那个项目归哪个片区？片区老大是谁？", "人员", "E,ZP,Z", "(lambda z: [Z.set_index('片区编号').片区名称[z], WHO[Z.set_index('片区编号').片区负责人工号[z]]])(single(ZP.loc[ZP.项目编号==E.loc[E.姓名=='许建军','当前服务项目编号'].iloc[0],'片区编号']))  # XMSQ0120", "all", {}),
    ("去年中标的里面哪个标金额最大？现在归谁管？", "项目", "T,P", "(lambda p: [NAME[p], P.loc[P.项目编号==p,'项目负责人'].iloc[0]])(T.loc[one(T.loc[(T.年份=='2025')&(T.中标结果=='中标'),'投标金额']),'项目编号'])  # 去年 = 2025", "all",
     {"all_of": ["人民医院|XMSQ0118", "王志强"]}),
    ("文体中心的门岗早上几点开门？", "其他", "P", "None  # no opening hours / post hours", NONE, {}),
    ("陶明亮考电工证花了多少培训费？", "金额", "Q", "None  # 人员证书 has no cost; no training records", NONE, {}),
    ("保安领班想升职得满足啥条件？", "其他", "W,E", "None  # 岗位字典 maps 岗位 -> 员工层级 only; no promotion rules", NONE, {}),
    ("滨江公园的保安一晚上要巡逻几圈？", "数量", "B", "None  # 排班 holds shift codes only; no patrol records", NONE, {}),
    ("这几个项目里哪个离公司总部最近？", "项目", "P", "None  # no head-office address or distances", NONE, {}),
    ("喻志华买东西的时候一般比几家价？", "数量", "C", "None  # one 供应商 per purchase; no quotations", NONE, {}),
    ("严玉梅走的时候拿了多少离职补偿？", "金额", "A", "None  # no severance item; 考勤 ends 2026-02 with 税后工资 only", NONE, {}),
    ("吴建华考保安员证的时候考了多少分？", "数量", "Q", "None  # 人员证书 has no exam score", NONE, {}),
]


if __name__ == "__main__":
    for _b in (B43, B44, B45):
        p34._check_groups(_b)
    base.write_batches([(43, p40._prep(B43)), (44, p40._prep(B44)), (45, p40._prep(B45))], refusals=8)
