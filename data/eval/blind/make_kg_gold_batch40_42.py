"""Fresh blind KG batches 40-42 (issue #15, thirteenth fresh round, KG only): computes every gold answer
with pandas straight from the sample spreadsheets (data/samples/business/*.xlsx) and writes
kg_batch_{40,41,42}.jsonl next to this file. Written by a writer who did not read the engine, its
rules, the golden sets, the tests, the git history or the old batch files' questions (beyond those
quoted in README.md and held in the gold scripts this one imports, which were avoided), and who did
not run the engine, the CLI or the scorer on these questions.

Same conventions as make_kg_gold_batch37_39.py (frames P E S Z ZP F A B T G D C K Q W, `cnt`, `pid`,
`NAME`, `WHO` 工号 -> 姓名, `JOB` 姓名 -> 工号, `M(df, ym)` rows of one 年月, `one(series)` the single
index of a maximum/minimum, asserting there is no tie, `DT` = pd.to_datetime, `single(seq)` the only
element of a list, `only(series)` the only distinct value of a column). The pandas expression is kept
in each record's "source"; expected null = not in the data. Bare months mean 2026. Relative dates are
read against the KG run's ZHICE_TODAY=2026-05-01: 今年 = 2026, 去年 = 2025, 前年 = 2024, 上个月 =
2026-04, 一季度 = 2026-01..03, 二季度 = 2026-04..06 (only 2026-04 is in the data); ages are counted on
2026-05-01. Month golds are written 2026-MM and also accept "M月"; the month keys of a per-month group
answer accept either form. Two-entity comparisons (kind 比较) carry a hand-written gold
"winner, difference" that `_prep` checks against the computed (winner, difference) pair; a month
winner ("2026-03") is checked in its "M月" form too. Writer-side keys, applied and dropped before
writing: "unit" (gold = computed number + unit), "pct" (two-decimal percentage accepting one decimal,
from make_kg_gold_batch37_39._finish) and "pct1" (one-decimal percentage, accepting the raw ratio).

    .venv/bin/python data/eval/blind/make_kg_gold_batch40_42.py
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kg_gold as base  # noqa: E402
import make_kg_gold_batch28_30 as p28  # noqa: E402,F401  (registers WHO, JOB, M, one, W, DT in base.NS)
import make_kg_gold_batch31_33 as p31  # noqa: E402  (MON, month_item)
import make_kg_gold_batch34_36 as p34  # noqa: E402  (job_ids, ZAIZHI, _check_groups)
import make_kg_gold_batch37_39 as p37  # noqa: E402  (single, only, LEAVE, _finish; registers single/only/DAYS in base.NS)

NONE = "none"  # not answerable from the spreadsheets: expected null
Q1 = p28.Q1  # 一季度 = ['2026-01','2026-02','2026-03']
BAOAN = p28.BAOAN  # 保安 = 保安_领班 + 保安_普保
XIAYANG = p28.XIAYANG
ZAIZHI = p34.ZAIZHI  # 在职 = 离职日期 empty
job_ids = p34.job_ids
LEAVE = p37.LEAVE  # ['事','病','年','调']
MON = p31.MON
MONTH = p31.month_item
LEAVE_N = "sum(cnt(A,c) for c in " + LEAVE + ")"  # leave days per 考勤 row (事+病+年+调)

B40 = [
    ("青浦-夏阳街道社区中心的项目简称是什么？", "其他", "P", "P.loc[P.项目编号=='XMSQ0125','项目简称'].iloc[0]", "value", {}),
    ("张丽娟是从哪个月开始负责徐汇-滨江公园的？", "日期", "S", "S.loc[(S.工号==JOB['张丽娟'])&(S.项目编号=='XMSQ0120'),'开始年月'].iloc[0]", "value", {"accept": ["2025年6月"]}),
    ("徐汇-科创大厦属于什么细分业态？", "类别", "P", "P.loc[P.项目编号=='XMSQ0112','细分业态'].iloc[0]", "value", {}),
    ("SB-0118-004是哪天启用的？", "日期", "D", "D.loc[D.设备编号=='SB-0118-004','启用日期'].iloc[0]", "value", {}),
    ("服务中的园区类项目，合同面积加起来一共多少？", "数量", "P", "P.loc[(P.服务状态=='服务中')&(P.汇总业态=='园区'),'合同面积'].sum()  # XMSQ0152 + XMSQ0105", "value", {"accept": ["14.4万"]}),
    ("今年前四个月，值班费总共发出去多少钱？", "金额", "A", "A.值班费.sum()", "value", {}),
    ("女员工1月的平均税后工资是多少？", "金额", "A,E", "M(A,'2026-01').loc[M(A,'2026-01').工号.isin(E.loc[E.性别=='女','工号']),'税后工资'].mean()", "value", {}),
    ("1到4月考勤里一共记了多少天年假？", "数量", "A", "cnt(A,'年').sum()", "value", {}),
    ("在职员工里政治面貌是群众的有几个？", "数量", "E", "(" + ZAIZHI + "&(E.政治面貌=='群众')).sum()", "value", {}),
    ("徐汇-区档案馆的合同面积是多少平方米？", "数量", "P", "P.loc[P.项目编号=='XMSQ0115','合同面积'].iloc[0]", "value", {}),
    ("采购与维保表里，记录类型为供应商的有几条？", "数量", "C", "(C.记录类型=='供应商').sum()  # 4 distinct 供应商名称 appear in other rows (上海冷暖通 has no 供应商 row)", "value", {}),
    ("上海洁美清洁用品有限公司给我们供了几种耗材？", "数量", "C", "C.loc[(C.记录类型=='耗材采购')&(C.供应商名称=='上海洁美清洁用品有限公司'),'名称'].nunique()", "value", {}),
    ("专业类别是安保的证书有几本？", "数量", "Q", "(Q.专业类别=='安保').sum()", "value", {}),
    ("青浦-体育馆的实际毛利率是多少？", "比例", "P", "P.loc[P.项目编号=='XMSQ0103','实际毛利率'].iloc[0]", "value", {"pct1": True}),
    ("陶明亮的出生日期是哪天？", "日期", "E", "E.loc[E.姓名=='陶明亮','出生日期'].iloc[0]", "value", {}),
    ("1月的考勤表上一共有多少人？", "数量", "A", "M(A,'2026-01').工号.nunique()", "value", {}),
    ("保安里面，1到4月累计拿到加班超时费最少的是哪位？", "人员", "A,E", "one(A.loc[A.工号.isin(E.loc[" + BAOAN + ",'工号'])].groupby('姓名').加班超时费.sum(), top=False)", "value", {}),
    ("青浦区服务中的项目里，实际毛利率最低的是哪个？", "项目", "P", "P.loc[one(P.loc[(P.市区=='青浦区')&(P.服务状态=='服务中'),'实际毛利率'], top=False)].项目名称  # XMSQ0131 0.107", "value", {"all_of": ["赵巷镇政府|XMSQ0131"]}),
    ("按入职年份统计，每年各入职了多少人？", "分组", "E", "E.groupby(E.入职日期.str[:4]).size().to_dict()", "group", {}),
    ("每种检查类型各做了几次？", "分组", "K", "K.groupby('检查类型').size().to_dict()", "group", {}),
    ("青浦-人民医院2月至4月的开票金额合计是多少？", "金额", "F", "F.loc[(F.项目编号=='XMSQ0118')&F.年月.between('2026-02','2026-04'),'开票金额'].sum()", "value", {}),
    ("今年一季度国定假日加班费合计多少钱？", "金额", "A", "A.loc[A.年月.isin(" + Q1 + "),'国定加班费'].sum()  # paid in 2026-01 and 2026-02 only", "value", {}),
    ("华国栋和魏大勇，1到4月谁的税后工资合计更多？多多少？", "比较", "A", "(lambda s: (s.idxmax(), s.max()-s.min()))(A.loc[A.姓名.isin(['华国栋','魏大勇'])].groupby('姓名').税后工资.sum())", "value",
     {"expected": "魏大勇，多169.39元", "all_of": ["魏大勇", "169.39"]}),
    ("客户满意度在95分及以上的项目有哪些？", "列表", "P", "P.loc[P.客户满意度>=95,'项目名称'].tolist()  # 95.7 (XMSQ0100), 95.6 (XMSQ0052), 98.0 (XMSQ0118); next below is 94.3", "all",
     {"all_of": ["文体中心|XMSQ0100", "北斗园区|XMSQ0052", "人民医院|XMSQ0118"]}),
    ("服务中的项目里，哪些没有投标记录？", "列表", "P,T", "P.loc[(P.服务状态=='服务中')&~P.项目编号.isin(T.项目编号),'项目名称'].tolist()", "all",
     {"all_of": ["文体中心|XMSQ0100", "工业园区|XMSQ0105", "环境监测中心|XMSQ0110", "区档案馆|XMSQ0115", "滨江公园|XMSQ0120"]}),
    ("4月有没有项目经理请过病假？是谁？", "人员", "A,E", "M(A,'2026-04').loc[M(A,'2026-04').工号.isin(" + job_ids('项目经理') + ")&(cnt(M(A,'2026-04'),'病')>0),'姓名'].tolist()", "all", {}),
    ("4月1日考勤记“加”的是哪几个人？", "列表", "A", "M(A,'2026-04').loc[M(A,'2026-04')['1日']=='加','姓名'].tolist()", "all", {}),
    ("秦家豪4月排了几个早班？", "数量", "B", "cnt(M(B,'2026-04').loc[M(B,'2026-04').姓名=='秦家豪'],'早').iloc[0]", "value", {}),
    ("监控硬盘录像机是哪个项目采购的？那个项目由谁负责？", "人员", "C,P", "(lambda p: [NAME[p], P.loc[P.项目编号==p,'项目负责人'].iloc[0]])(C.loc[C.名称=='监控硬盘录像机','项目编号'].iloc[0])", "all",
     {"all_of": ["环境监测中心|XMSQ0110", "李晓峰"]}),
    ("秦家豪所在项目的片区负责人，手机号是多少？", "电话", "E,ZP,Z", "E.loc[E.工号==Z.set_index('片区编号').片区负责人工号[single(ZP.loc[ZP.项目编号==E.loc[E.姓名=='秦家豪','当前服务项目编号'].iloc[0],'片区编号'])],'联系电话'].iloc[0]", "value", {}),
    ("SB-0102-003的设备责任人是什么岗位的？", "其他", "D,E", "E.loc[E.工号==D.loc[D.设备编号=='SB-0102-003','设备责任人工号'].iloc[0],'岗位名称'].iloc[0]  # 周建国", "value", {}),
    ("徐汇片区负责人自己负责的项目，3月一共收款多少？", "金额", "Z,E,P,F", "M(F,'2026-03').loc[M(F,'2026-03').项目编号.isin(P.loc[P.项目负责人==WHO[Z.loc[Z.片区名称=='徐汇片区','片区负责人工号'].iloc[0]],'项目编号']),'收款金额'].sum()", "value", {}),
    ("今年二季度全公司一共开了多少票？", "金额", "F", "None  # 二季度 = 2026-04..06; F holds 2026-04 only (05, 06 not in the data)", NONE, {}),
    ("青浦-人民医院从开始服务到现在，一共收了多少款？", "金额", "P,F", "None  # XMSQ0118 started 2025-04-01; F holds 2026-01..04 only (2025-04..12 missing)", NONE, {}),
    ("申勤物业闵行管理处有多少员工？", "数量", "E", "None  # 组织名称 only 申勤物业青浦管理处, 申勤物业徐汇管理处", NONE, {}),
    ("绿化养护检查的平均得分是多少？", "数量", "K", "None  # 检查类型 only 月度品质检查, 客户满意度回访, 消防安全检查", NONE, {}),
    ("青浦-人民医院的合同面积里，室内和室外各占多少？", "数量", "P", "None  # 合同面积 is one total; no indoor / outdoor split", NONE, {}),
    ("钱国庆3月旷工被扣了多少钱？", "金额", "A", "None  # 备注 旷工扣款 is a flag; no deduction amount column", NONE, {}),
    ("青浦-人民医院那2次客户投诉分别投诉的是什么？", "其他", "P", "None  # 客户投诉 is a count; no complaint records", NONE, {}),
    ("青浦-人民医院98分的客户满意度是调查了多少人得出来的？", "数量", "P", "None  # no survey sample size", NONE, {}),
]

B41 = [
    ("孙海涛属于哪个员工层级？", "类别", "E,W", "W.loc[W.岗位名称==E.loc[E.姓名=='孙海涛','岗位名称'].iloc[0],'员工层级'].iloc[0]  # his 人员信息.员工层级 is empty; 岗位字典: 保安_领班 -> 一线员工", "value", {}),
    ("徐汇-文化馆的合同结束日期是哪天？", "日期", "P", "P.loc[P.项目编号=='XMSQ0130','结束日期'].iloc[0]", "value", {}),
    ("青浦-老城厢停车场的合同面积是多少？", "数量", "P", "P.loc[P.项目编号=='XMSQ0099','合同面积'].iloc[0]", "value", {}),
    ("魏大勇的入职日期是什么时候？", "日期", "E", "E.loc[E.姓名=='魏大勇','入职日期'].iloc[0]", "value", {}),
    ("编号SB-0110-001的设备是哪个厂家生产的，什么型号？", "其他", "D", "D.loc[D.设备编号=='SB-0110-001',['制造厂商','规格型号']].iloc[0].tolist()", "all", {}),
    ("2月全公司的加班超时费合计多少？", "金额", "A", "M(A,'2026-02').加班超时费.sum()", "value", {}),
    ("客服岗位4月的税后工资合计是多少？", "金额", "A,E", "M(A,'2026-04').loc[M(A,'2026-04').工号.isin(" + job_ids('客服') + "),'税后工资'].sum()", "value", {}),
    ("青浦管理处的员工里有几个共青团员？", "数量", "E", "((E.组织名称=='申勤物业青浦管理处')&(E.政治面貌=='共青团员')).sum()", "value", {}),
    ("所有项目的标准工时人数加起来是多少？", "数量", "G", "G.标准工时人数.sum()", "value", {}),
    ("上海凯泉生产的设备一共有几台？", "数量", "D", "(D.制造厂商=='上海凯泉').sum()", "value", {}),
    ("设备里现在状态完好的有多少台？", "数量", "D", "(D.完好状况=='完好').sum()", "value", {}),
    ("投标类型是新标、而且中了标的有几次？", "数量", "T", "((T.投标类型=='新标')&(T.中标结果=='中标')).sum()", "value", {}),
    ("耗材采购一共有几笔记录？", "数量", "C", "(C.记录类型=='耗材采购').sum()", "value", {}),
    ("客户满意度回访里，最低的一次得了多少分？", "数量", "K", "K.loc[K.检查类型=='客户满意度回访','检查得分'].min()", "value", {}),
    ("体育馆项目合同约定的服务面积是多少平方米？", "数量", "P", "P.loc[P.项目编号=='XMSQ0103','合同面积'].iloc[0]", "value", {}),
    ("张凤英的政治面貌是什么？", "其他", "E", "E.loc[E.姓名=='张凤英','政治面貌'].iloc[0]", "value", {}),
    ("4月全公司的回款率（收款除以开票）是多少？", "比例", "F", "M(F,'2026-04').收款金额.sum()/M(F,'2026-04').开票金额.sum()", "value", {"pct": True}),
    ("4月哪个岗位的平均税后工资最低？", "其他", "A,E", "one(M(A,'2026-04').groupby(M(A,'2026-04').工号.map(dict(zip(E.工号,E.岗位名称)))).税后工资.mean(), top=False)", "value", {"all_of": ["保洁员|保洁"]}),
    ("按证书类别统计，每类各有几本证书？", "分组", "Q", "Q.groupby('证书类别').size().to_dict()", "group", {}),
    ("按投标经办人汇总，每个人经手的投标金额各是多少？", "分组", "T,E", "T.groupby(T.投标经办人工号.map(WHO)).投标金额.sum().to_dict()", "group", {}),
    ("3月和4月比，全公司哪个月的加班小时多？多多少？", "比较", "A", "(lambda s: (s.idxmax(), s.max()-s.min()))(A.loc[A.年月.isin(['2026-03','2026-04'])].groupby('年月').加班小时.sum())", "value",
     {"expected": "3月，多28小时", "all_of": ["3月|2026-03", "28"]}),
    ("徐汇-科创大厦和徐汇-环境监测中心，1到4月谁的开票合计更高？高多少？", "比较", "F,P", "(lambda s: (s.idxmax(), s.max()-s.min()))(F.loc[F.项目编号.isin(['XMSQ0110','XMSQ0112'])].groupby(F.项目编号.map(NAME)).开票金额.sum())", "value",
     {"expected": "徐汇-科创大厦，高396955.22元", "all_of": ["科创大厦", "396955.22"]}),
    ("服务中的项目里，合同面积不到1万平方米的是哪几个？", "列表", "P", "P.loc[(P.服务状态=='服务中')&(P.合同面积<10000),'项目名称'].tolist()", "all",
     {"all_of": ["区档案馆|XMSQ0115", XIAYANG]}),
    ("项目经理里谁没有物业管理师证？", "人员", "E,Q", "E.loc[(E.岗位名称=='项目经理')&~E.工号.isin(Q.loc[Q.证书名称=='物业管理师','工号']),'姓名'].tolist()", "all", {}),
    ("3月有没有保安请过事假？是谁？", "人员", "A,E", "M(A,'2026-03').loc[M(A,'2026-03').工号.isin(E.loc[" + BAOAN + ",'工号'])&(cnt(M(A,'2026-03'),'事')>0),'姓名'].tolist()", "all", {}),
    ("3月戚佳怡一共上了多少个早班？", "数量", "B", "cnt(M(B,'2026-03').loc[M(B,'2026-03').姓名=='戚佳怡'],'早').iloc[0]", "value", {}),
    ("1到4月的排班里，吴建华的中班合计有多少个？", "数量", "B", "cnt(B.loc[B.姓名=='吴建华'],'中').sum()", "value", {}),
    ("待修的那台消防水泵所在的项目，合同哪天到期？", "日期", "D,P", "P.loc[P.项目编号==single(D.loc[(D.设备类型=='消防')&(D.完好状况=='待修'),'项目编号']),'结束日期'].iloc[0]  # SB-0110-002 -> XMSQ0110", "value", {}),
    ("赵巷镇政府那次消防安全检查是谁做的？他的联系电话是多少？", "电话", "K,E", "(lambda w: [WHO[w], E.loc[E.工号==w,'联系电话'].iloc[0]])(single(K.loc[(K.项目编号=='XMSQ0131')&(K.检查类型=='消防安全检查'),'检查人工号']))", "all", {}),
    ("持有保安员证的人，4月平均税后工资是多少？", "金额", "Q,A", "M(A,'2026-04').loc[M(A,'2026-04').工号.isin(Q.loc[Q.证书名称=='保安员（三级）','工号']),'税后工资'].mean()  # 6 holders (领班 and 普保)", "value", {}),
    ("郑晓东3月起所在的项目，项目负责人是谁？", "人员", "S,P", "P.loc[P.项目编号==single(S.loc[(S.工号==JOB['郑晓东'])&(S.开始年月=='2026-03'),'项目编号']),'项目负责人'].iloc[0]", "value", {}),
    ("按设备类型汇总，哪一类设备的原值合计最高？", "其他", "D", "one(D.groupby('设备类型').原值.sum())", "value", {}),
    ("3月谁迟到的次数最多？", "人员", "A", "None  # no 迟到 code (√ 休 事 病 年 调 旷 加 only) and no clock times", NONE, {}),
    ("青浦-人民医院合同约定的付款周期是多久？", "其他", "P", "None  # no payment-terms field", NONE, {}),
    ("下一次消防安全检查安排在哪天？", "日期", "K", "None  # 检查记录 holds past checks only; no schedule", NONE, {}),
    ("徐汇-文化馆那次投标的截止时间是哪天？", "日期", "T", "None  # no 投标截止 field (年份, 中标日期 only; 中标日期 empty for this 待定 bid)", NONE, {}),
    ("SB-0105-001这台客梯的设计使用年限是多少年？", "数量", "D", "None  # no 使用年限 / 寿命 field", NONE, {}),
    ("去年年底青浦-人民医院的在岗人数是多少？", "数量", "G", "None  # 岗位编制 is a current snapshot (no date); 考勤 starts 2026-01", NONE, {}),
    ("申勤物业徐汇管理处的办公地址在哪里？", "地址", "E", "None  # 组织名称 only; no address for a 管理处 (项目地址 is per project)", NONE, {}),
    ("陶明亮的高压电工作业证是哪年拿到的？", "日期", "Q", "None  # no 取证日期 field", NONE, {}),
]

B42 = [
    ("老城厢停车场那个项目当时是谁负责的？", "人员", "P", "P.loc[P.项目编号=='XMSQ0099','项目负责人'].iloc[0]", "value", {}),
    ("体育馆那边合同签到啥时候？", "日期", "P", "P.loc[P.项目编号=='XMSQ0103','结束日期'].iloc[0]", "value", {"accept": ["2026年12月31日"]}),
    ("滨江公园那边现在派了几个人？", "数量", "E", "(E.当前服务项目编号=='XMSQ0120').sum()  # 张丽娟, 许建军 (严玉梅 left)", "value", {}),
    ("档案馆那个项目客户打了多少分？", "数量", "P", "P.loc[P.项目编号=='XMSQ0115','客户满意度'].iloc[0]", "value", {}),
    ("何宇航是哪年生的？今年多大了？", "数量", "E", "(lambda b: [b.strftime('%Y-%m-%d'), f\"{2026-b.year-((5, 1) < (b.month, b.day))}岁\"])(DT(E.loc[E.姓名=='何宇航','出生日期'].iloc[0]))  # age on 2026-05-01", "all",
     {"all_of": ["2000", "25岁|25周岁"]}),
    ("现在还在干的保洁阿姨有几个？", "数量", "E", "((E.岗位名称=='保洁员')&" + ZAIZHI + ").sum()", "value", {}),
    ("对讲机电池一共买了多少块？", "数量", "C", "C.loc[C.名称=='对讲机电池','数量'].iloc[0]", "value", {}),
    ("LED灯管那笔花了多少钱？", "金额", "C", "C.loc[C.名称=='LED 灯管','金额'].iloc[0]", "value", {}),
    ("4月保洁阿姨们一共加了几个钟头的班？", "数量", "A,E", "M(A,'2026-04').loc[M(A,'2026-04').工号.isin(" + job_ids('保洁员') + "),'加班小时'].sum()", "value", {}),
    ("科创大厦4月开了多少票？", "金额", "F", "M(F,'2026-04').loc[M(F,'2026-04').项目编号=='XMSQ0112','开票金额'].iloc[0]", "value", {}),
    ("工业园区那边开利的设备有几台？", "数量", "D", "((D.项目编号=='XMSQ0105')&(D.制造厂商=='开利')).sum()", "value", {}),
    ("金建平手上有啥证？", "列表", "Q", "Q.loc[Q.姓名=='金建平','证书名称'].tolist()", "all", {}),
    ("人民医院的保安头儿是哪个？", "人员", "E", "E.loc[(E.岗位名称=='保安_领班')&(E.当前服务项目编号=='XMSQ0118'),'姓名'].iloc[0]", "value", {}),
    ("前年投的是哪个项目的标？中了没有？", "项目", "T,P", "(lambda t: [NAME[t.项目编号], t.中标结果])(single(T.loc[T.年份=='2024'].itertuples()))  # 前年 = 2024", "all",
     {"all_of": ["体育馆|XMSQ0103", "中标"]}),
    ("夏阳社区中心到现在一共收回来多少钱？", "金额", "F", "F.loc[F.项目编号=='XMSQ0125','收款金额'].sum()  # rows 2026-03, 2026-04 only (started 2026-03-01)", "value", {}),
    ("孔美玲手机号多少？", "电话", "E", "E.loc[E.姓名=='孔美玲','联系电话'].iloc[0]", "value", {}),
    ("算上调休，1到4月谁请假的天数最多？", "人员", "A", "one(A.assign(n=" + LEAVE_N + ").groupby('姓名').n.sum())  # 陈慧敏 5 (事/病/年/调); without 调 she ties 王志强 and 吕秀英 at 4", "value", {}),
    ("哪个月大伙到手的钱加起来最少？", "日期", "A", "one(A.groupby('年月').税后工资.sum(), top=False)", "value", {}),
    ("几个项目经理各管着几个项目？结束了的也算上", "分组", "P", "P.groupby('项目负责人').size().to_dict()", "group", {}),
    ("华国栋4月比1月多拿了多少钱？", "金额", "A", "M(A,'2026-04').loc[M(A,'2026-04').姓名=='华国栋','税后工资'].iloc[0]-M(A,'2026-01').loc[M(A,'2026-01').姓名=='华国栋','税后工资'].iloc[0]", "value", {}),
    ("一季度区图书馆那边的人一共到手多少？", "金额", "A", "A.loc[(A.项目编号=='XMSQ0102')&A.年月.isin(" + Q1 + "),'税后工资'].sum()", "value", {}),
    ("王志强跟李晓峰，谁手上项目一年的合同额多？多多少？", "比较", "P", "(lambda s: (s.idxmax(), s.max()-s.min()))(P.loc[P.项目负责人.isin(['王志强','李晓峰'])].groupby('项目负责人').年化合同额.sum())", "value",
     {"expected": "王志强，多3060000元", "all_of": ["王志强", "3060000|306万"]}),
    ("原值不到5万的设备有几台？", "数量", "D", "(D.原值<50000).sum()", "value", {}),
    ("有没有保安这四个月一天假都没请过？都有谁？", "列表", "A,E", "[n for n in E.loc[" + BAOAN + ",'姓名'] if sum(cnt(A.loc[A.姓名==n],c).sum() for c in " + LEAVE + ")==0]", "all", {}),
    ("杨振华2月旷工那两天是几号？", "列表", "A", "[d for d in DAYS if M(A,'2026-02').loc[M(A,'2026-02').姓名=='杨振华',d].iloc[0]=='旷']", "all",
     {"expected": "2月5日、2月11日", "all_of": ["2月5日|02-05|5日", "2月11日|02-11|11日"]}),
    ("秦家豪3月上了几个夜班？", "数量", "B", "cnt(M(B,'2026-03').loc[M(B,'2026-03').姓名=='秦家豪'],'夜').iloc[0]", "value", {}),
    ("金建平4月上了几个白班？", "数量", "B", "cnt(M(B,'2026-04').loc[M(B,'2026-04').姓名=='金建平'],'白').iloc[0]", "value", {}),
    ("那台报废的消防泵是谁管的？电话多少？", "电话", "D,E", "(lambda w: [WHO[w], E.loc[E.工号==w,'联系电话'].iloc[0]])(single(D.loc[D.完好状况=='报废','设备责任人工号']))", "all", {}),
    ("医院那个保洁阿姨是哪天进的公司？", "日期", "E", "single(E.loc[(E.岗位名称=='保洁员')&(E.当前服务项目编号=='XMSQ0118'),'入职日期'])  # 孔美玲", "value", {}),
    ("青浦片区负责人自己管的项目里，哪个满意度最低？", "项目", "Z,E,P", "P.loc[one(P.loc[P.项目负责人==WHO[Z.loc[Z.片区名称=='青浦片区','片区负责人工号'].iloc[0]],'客户满意度'], top=False)].项目名称", "value",
     {"all_of": ["体育馆|XMSQ0103"]}),
    ("严玉梅走之前在哪个项目上干？", "项目", "A,E,P", "NAME[only(A.loc[A.姓名=='严玉梅','项目编号'])]  # her 当前服务项目编号 is empty; 考勤 2026-01..02", "value", {"all_of": ["滨江公园|XMSQ0120"]}),
    ("北斗园区的保安3月一共上了多少个夜班？", "数量", "B,E", "cnt(M(B,'2026-03').loc[(M(B,'2026-03').项目编号=='XMSQ0152')&M(B,'2026-03').工号.isin(E.loc[" + BAOAN + ",'工号'])],'夜').sum()", "value", {}),
    ("咱们那几台扶梯是哪家厂的？", "其他", "D", "None  # no 扶梯: the 电梯 devices are 客梯 only", NONE, {}),
    ("人民医院那台客梯一天跑多少趟？", "数量", "D", "None  # no usage / trip-count field", NONE, {}),
    ("公司一共有几辆车？", "数量", "-", "None  # no vehicle records in any of the 15 templates", NONE, {}),
    ("工业园区那台报废的消防泵最后卖了多少钱？", "金额", "D", "None  # 完好状况 报废 only; no disposal value", NONE, {}),
    ("区图书馆的监控录像现在能存几天？", "数量", "K,D", "None  # 问题描述 says 监控存储不足 30 天 (已整改); no retention figure", NONE, {}),
    ("咱们今年开票定的目标是多少？", "金额", "F", "None  # F holds actuals only; no targets / budgets of 开票", NONE, {}),
    ("北斗园区门禁卡一共发了多少张？", "数量", "-", "None  # no access-card records", NONE, {}),
    ("魏大勇每个月手机话费能报多少？", "金额", "A", "None  # no 话费 / 报销 item", NONE, {}),
]


def _prep(batch: list) -> list:
    """make_kg_gold_batch37_39._finish ("unit", "pct") plus "pct1"; month accepts for month golds and
    month keys; comparisons checked against the computed (winner, difference) pair."""
    staged = []
    for q, kind, frames, expr, how, extra in batch:
        extra = dict(extra)
        if extra.pop("pct1", False):
            v = float(eval(expr.split("  #")[0], base.NS))  # noqa: S307 - our own expressions
            extra["expected"] = f"{v * 100:.1f}%"
            extra["accept"] = [f"{v:.3f}".rstrip("0")] + extra.get("accept", [])
        staged.append((q, kind, frames, expr, how, extra))
    out = []
    for q, kind, frames, expr, how, extra in p37._finish(staged):
        extra = dict(extra)
        code = expr.split("  #")[0]
        if kind == "比较":
            who, diff = eval(code, base.NS)  # noqa: S307
            alts = extra["all_of"][0].split("|")
            names = {who, MON.get(who, who)}
            assert any(n.endswith(a) for n in names for a in alts), (q, who, alts)
            assert base.fmt(diff) == extra["all_of"][1].split("|")[0], (q, who, diff)
            assert alts[0] in extra["expected"] and base.fmt(diff) in extra["expected"], q
        if how == "value" and kind == "日期":
            v = base.fmt(eval(code, base.NS))  # noqa: S307
            if v in MON:
                extra.setdefault("accept", []).append(MON[v])
        if how == "group" and "年月" in code:
            v = eval(code, base.NS)  # noqa: S307
            extra["all_of"] = [base.fmt(x) for x in v.values()] + [MONTH(k) for k in v]
        out.append((q, kind, frames, expr, how, extra))
    return out


if __name__ == "__main__":
    for _b in (B40, B41, B42):
        p34._check_groups(_b)
    base.write_batches([(40, _prep(B40)), (41, _prep(B41)), (42, _prep(B42))], refusals=8)
