"""Fresh blind KG batches 46-48 (issue #15, fifteenth fresh round, KG only): computes every gold answer
with pandas straight from the sample spreadsheets (data/samples/business/*.xlsx) and writes
kg_batch_{46,47,48}.jsonl next to this file. Written by a writer who did not read the engine, its
rules, the golden sets, the tests, the git history or the old batch files' questions (beyond those
quoted in README.md and held in the gold scripts this one imports, which were avoided), and who did
not run the engine, the CLI or the scorer on these questions.

Same conventions as make_kg_gold_batch43_45.py (frames P E S Z ZP F A B T G D C K Q W, `cnt`, `pid`,
`NAME`, `WHO` 工号 -> 姓名, `JOB` 姓名 -> 工号, `M(df, ym)` rows of one 年月, `one(series)` the single
index of a maximum/minimum, asserting there is no tie, `DT` = pd.to_datetime, `single(seq)` the only
element of a list, `only(series)` the only distinct value of a column). The pandas expression is kept
in each record's "source"; expected null = not in the data. Bare months mean 2026. Relative dates are
read against the KG run's ZHICE_TODAY=2026-05-01 (今年 = 2026, 一季度 = 2026-01..03, 今年下半年 =
2026-07..12); no answerable gold here depends on today's date. Month golds are written YYYY-MM; a 2026
month also accepts "M月" (added by make_kg_gold_batch40_42._prep), an earlier one accepts "YYYY年M月"
(written by hand); the month keys of a per-month group answer accept either form; day golds accept
"M月D日|MM-DD|D日" (written by hand). Two-entity comparisons (kind 比较) carry a hand-written gold
"winner, difference" that `_prep` checks against the computed (winner, difference) pair. Writer-side
keys "unit", "pct", "pct1" as in make_kg_gold_batch40_42.py (applied and dropped before writing).
Group answers with a hand-written all_of are checked by make_kg_gold_batch34_36._check_groups.

Batch 46 is worded like office / HR / finance staff, batch 47 colloquially (nicknames of projects,
有没有 / 几个 / 啥), batch 48 as a manager's analysis (totals per group, the top or bottom group,
comparisons with the difference, combined conditions, ratios, chains across sheets).

    .venv/bin/python data/eval/blind/make_kg_gold_batch46_48.py
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kg_gold as base  # noqa: E402
import make_kg_gold_batch34_36 as p34  # noqa: E402  (_check_groups)
import make_kg_gold_batch40_42 as p40  # noqa: E402  (frames and helpers in base.NS, Q1, BAOAN, LEAVE, _prep)
import make_kg_gold_batch43_45 as p43  # noqa: E402,F401  (CMP, POST, ORG; the previous round, imported as it imports its predecessors)

NONE = "none"  # not answerable from the spreadsheets: expected null
Q1 = p40.Q1  # 一季度 = ['2026-01','2026-02','2026-03']
BAOAN = p40.BAOAN  # 保安 = 保安_领班 + 保安_普保
XIAYANG = p40.XIAYANG
ZAIZHI = p40.ZAIZHI  # 在职 = 离职日期 empty
job_ids = p40.job_ids
CMP = p43.CMP  # (winner, difference) of a two-row series
POST = p43.POST  # 工号 -> 岗位名称
ORG = p43.ORG  # 工号 -> 组织名称
LAYER = "dict(zip(W.岗位名称,W.员工层级))"  # 岗位名称 -> 员工层级 (岗位字典; 人员信息.员工层级 is often empty)
ZNAME = "dict(zip(Z.片区编号,Z.片区名称))"
ZHENG_NEW = "single(S.loc[(S.工号==JOB['郑晓东'])&(S.开始年月=='2026-03'),'项目编号'])"  # XMSQ0152

B46 = [
    ("人员服务期表中，王志强在青浦-人民医院的服务开始年月是哪个月？", "日期", "S", "S.loc[(S.工号==JOB['王志强'])&(S.项目编号=='XMSQ0118'),'开始年月'].iloc[0]", "value", {"accept": ["2025年4月"]}),
    ("徐汇-科创大厦在项目片区关系表里同时归属哪几个片区？", "列表", "ZP,Z", "[" + ZNAME + "[z] for z in ZP.loc[ZP.项目编号=='XMSQ0112','片区编号']]", "all", {}),
    ("职级为M2的员工有哪几位？", "列表", "E", "E.loc[E.职级=='M2','姓名'].tolist()", "all", {}),
    ("青浦-夏阳街道社区中心的甲方单位全称是什么？", "单位", "P", "P.loc[P.项目编号=='XMSQ0125','甲方名称'].iloc[0]", "value", {}),
    ("财务专员这个岗位在岗位字典里属于哪个员工层级？", "类别", "W", "W.loc[W.岗位名称=='财务专员','员工层级'].iloc[0]", "value", {}),
    ("1到4月全公司的餐费合计是多少？", "金额", "A", "A.餐费.sum()", "value", {}),
    ("2月考勤中登记为病假的天数一共有几天？", "数量", "A", "cnt(M(A,'2026-02'),'病').sum()", "value", {}),
    ("谢梦瑶1月的排班里有几个早班？", "数量", "B", "cnt(M(B,'2026-01').loc[M(B,'2026-01').姓名=='谢梦瑶'],'早').iloc[0]", "value", {}),
    ("医用级消毒液这笔耗材采购的数量是多少？", "数量", "C", "C.loc[C.名称=='医用级消毒液','数量'].iloc[0]", "value", {"accept": ["120瓶"]}),
    ("检查记录里，青浦-区图书馆做过哪几种类型的检查？", "列表", "K", "K.loc[K.项目编号=='XMSQ0102','检查类型'].unique().tolist()", "all", {}),
    ("人员证书表中证书类别为职称的共有几本？", "数量", "Q", "(Q.证书类别=='职称').sum()  # 4 物业管理师", "value", {}),
    ("2022年中标的投标是哪个项目的？投标金额是多少？", "项目", "T,P", "(lambda t: [NAME[t.项目编号], t.投标金额])(single(T.loc[(T.年份=='2022')&(T.中标结果=='中标')].itertuples()))", "all",
     {"expected": "青浦-北斗园区（XMSQ0052），4680000元", "all_of": ["北斗园区|XMSQ0052", "4680000|468万"]}),
    ("岗位编制表里在岗人数为0的记录有几条？", "数量", "G", "(G.在岗人数==0).sum()", "value", {}),
    ("SB-0105-005的规格型号和启用日期分别是什么？", "其他", "D", "D.loc[D.设备编号=='SB-0105-005',['规格型号','启用日期']].iloc[0].tolist()", "all", {}),
    ("青浦-文体中心一季度的收款金额合计是多少？", "金额", "F", "F.loc[(F.项目编号=='XMSQ0100')&F.年月.isin(" + Q1 + "),'收款金额'].sum()", "value", {}),
    ("徐汇管理处的保安_普保有哪几位？", "列表", "E", "E.loc[(E.组织名称=='申勤物业徐汇管理处')&(E.岗位名称=='保安_普保'),'姓名'].tolist()", "all", {}),
    ("在职员工按岗位名称统计，各岗位分别有多少人？", "分组", "E", "E.loc[" + ZAIZHI + "].groupby('岗位名称').size().to_dict()", "group", {}),
    ("4月的加班超时费按员工所属管理处汇总，各是多少？", "分组", "A,E", "M(A,'2026-04').groupby(M(A,'2026-04').工号.map(" + ORG + ")).加班超时费.sum().to_dict()", "group",
     {"all_of": ["1080", "3060", "徐汇管理处|徐汇", "青浦管理处|青浦"]}),
    ("按考勤所属项目汇总4月税后工资，金额最少的是哪个项目？", "项目", "A,P", "NAME[one(M(A,'2026-04').groupby('项目编号').税后工资.sum(), top=False)]  # XMSQ0103 8472.69; next XMSQ0115 8636.73", "value", {"all_of": ["体育馆|XMSQ0103"]}),
    ("计费方式为包干制的项目，4月开票金额合计是多少？", "金额", "P,F", "M(F,'2026-04').loc[M(F,'2026-04').项目编号.isin(P.loc[P.计费方式=='包干制','项目编号']),'开票金额'].sum()", "value", {}),
    ("1到4月考勤里事假天数合计最多的员工是谁？", "人员", "A", "one(A.assign(n=cnt(A,'事')).groupby('姓名').n.sum())  # 王志强 2 (1月, 3月); the others at most 1", "value", {}),
    ("持有保安员（三级）证书的员工，1到4月的加班小时合计是多少？", "数量", "Q,A", "A.loc[A.工号.isin(Q.loc[Q.证书名称=='保安员（三级）','工号']),'加班小时'].sum()", "value", {}),
    ("今年前四个月，按月份列出全公司的收款金额合计。", "分组", "F", "F.groupby('年月').收款金额.sum().to_dict()", "group", {}),
    ("设备责任人为周建国的设备，原值合计是多少？", "金额", "D,E", "D.loc[D.设备责任人工号==JOB['周建国'],'原值'].sum()  # the 3 devices of XMSQ0102", "value", {"accept": ["98.2万"]}),
    ("合同年限为1年的维保合同分别由哪些供应商承接？", "列表", "C", "C.loc[(C.记录类型=='维保合同')&(C.合同年限==1),'供应商名称'].unique().tolist()", "all", {}),
    ("客户满意度回访分别由哪些检查人完成？", "列表", "K,E", "[WHO[w] for w in K.loc[K.检查类型=='客户满意度回访','检查人工号'].unique()]", "all", {}),
    ("2025年入职的员工中，1到4月税后工资合计最高的是谁？", "人员", "E,A", "one(A.loc[A.工号.isin(E.loc[E.入职日期.str.startswith('2025'),'工号'])].groupby('姓名').税后工资.sum())", "value", {}),
    ("持有物业管理师证书的员工中，谁的入职日期最晚？", "人员", "Q,E", "E.loc[one(DT(E.loc[E.工号.isin(Q.loc[Q.证书名称=='物业管理师','工号']),'入职日期']))].姓名  # 张丽娟 (2022) holds no 物业管理师", "value", {}),
    ("2026年投标的两个项目，投标经办人分别是谁？", "列表", "T,E,P", "[WHO[w] for w in T.loc[T.年份=='2026','投标经办人工号']]", "all",
     {"expected": "青浦-夏阳街道社区中心：王志强；徐汇-文化馆：张丽娟", "all_of": ["王志强", "张丽娟"]}),
    ("郑晓东调岗之前所在的项目，4月的开票金额是多少？", "金额", "S,F", "M(F,'2026-04').loc[M(F,'2026-04').项目编号==single(S.loc[(S.工号==JOB['郑晓东'])&(S.备注=='调岗'),'项目编号']),'开票金额'].iloc[0]  # XMSQ0131 (2026-01..02)", "value", {}),
    ("考勤记在青浦-工业园区的员工，1到4月加班超时费合计是多少？", "金额", "A", "A.loc[A.项目编号=='XMSQ0105','加班超时费'].sum()", "value", {}),
    ("检查人为李晓峰的检查，平均得分是多少？", "数量", "K,E", "K.loc[K.检查人工号==JOB['李晓峰'],'检查得分'].mean()", "value", {}),
    ("孔美玲是否为工会会员？", "其他", "E", "None  # no 工会 field in 人员信息 (政治面貌 only)", NONE, {}),
    ("4月份全公司的交通补贴一共发了多少？", "金额", "A", "None  # no 交通补贴 item (餐费, 加班超时费, 国定加班费, 值班费, 税后工资 only)", NONE, {}),
    ("2025年7月全公司的餐费合计是多少？", "金额", "A", "None  # A.年月 only 2026-01..04", NONE, {}),
    ("青浦-区档案馆的甲方是哪家单位？", "单位", "P", "None  # no 青浦-区档案馆 (徐汇-区档案馆 exists)", NONE, {}),
    ("曹秀贞的入职日期是哪天？", "日期", "E", "None  # no 曹秀贞 (曹秀珍 exists)", NONE, {}),
    ("青浦-人民医院那次投标的招标代理机构是哪家？", "单位", "T", "None  # no agency / tenderer field in 投标记录", NONE, {}),
    ("固定资产里那台洗地机，验收日期登记的是哪天？", "日期", "C", "None  # 状态 已验收 only; 日期 is the 签订/采购日期 (2026-02-20), no 验收日期", NONE, {}),
    ("客服岗位的岗位职责是什么？", "其他", "W", "None  # 岗位字典 maps 岗位名称 -> 员工层级 only; no duties", NONE, {}),
]

B47 = [
    ("体育馆那个项目一年合同额多少？", "金额", "P", "P.loc[P.项目编号=='XMSQ0103','年化合同额'].iloc[0]", "value", {"accept": ["132万"]}),
    ("医院那边是啥委托方式、咋计费的？", "类别", "P", "P.loc[P.项目编号=='XMSQ0118',['委托方式','计费方式']].iloc[0].tolist()", "all", {}),
    ("曹秀珍是哪个管理处的？", "部门", "E", "E.loc[E.姓名=='曹秀珍','组织名称'].iloc[0]", "value", {"accept": ["青浦管理处"]}),
    ("搞财务的那位是哪年进的公司？", "日期", "E", "single(E.loc[E.岗位名称=='财务专员','入职日期'])  # 邹红梅", "value", {"expected": "2019年（2019-07-01）", "all_of": ["2019"]}),
    ("现在还在职的70后有几个？", "数量", "E", "(" + ZAIZHI + "&E.出生日期.between('1970-01-01','1979-12-31')).sum()  # 严玉梅 (1976) left", "value", {}),
    ("工业园区那些设备里，放在地下一层设备间的有几台？", "数量", "D", "((D.项目编号=='XMSQ0105')&(D.安装位置=='地下一层设备间')).sum()", "value", {}),
    ("冷暖通那家公司给咱哪个项目做维保？", "项目", "C,P", "NAME[single(C.loc[(C.记录类型=='维保合同')&(C.供应商名称=='上海冷暖通设备工程有限公司'),'项目编号'])]", "value", {"all_of": ["人民医院|XMSQ0118"]}),
    ("4月孙海涛一共轮到几个夜班？", "数量", "B", "cnt(M(B,'2026-04').loc[M(B,'2026-04').姓名=='孙海涛'],'夜').iloc[0]", "value", {}),
    ("谢梦瑶4月出了几天勤？", "数量", "A", "M(A,'2026-04').loc[M(A,'2026-04').姓名=='谢梦瑶','上班天数'].iloc[0]", "value", {}),
    ("赵巷镇政府3月收回来多少钱？", "金额", "F", "M(F,'2026-03').loc[M(F,'2026-03').项目编号=='XMSQ0131','收款金额'].iloc[0]", "value", {}),
    ("文化馆那个标报了多少钱？", "金额", "T", "T.loc[T.项目编号=='XMSQ0130','投标金额'].iloc[0]", "value", {"accept": ["207万"]}),
    ("科创大厦那边各岗位一共编了几个人？", "数量", "G", "G.loc[G.项目编号=='XMSQ0112','项目编制'].sum()", "value", {}),
    ("咱们手上有证的一共多少人？", "数量", "Q", "Q.工号.nunique()", "value", {}),
    ("北斗园区那次消防检查打了几分？", "数量", "K", "single(K.loc[(K.项目编号=='XMSQ0152')&(K.检查类型=='消防安全检查'),'检查得分'])", "value", {}),
    ("岗位字典里算一线员工的岗位一共几种？", "数量", "W", "(W.员工层级=='一线员工').sum()", "value", {}),
    ("夏阳那个项目归哪个片区？", "单位", "ZP,Z", ZNAME + "[single(ZP.loc[ZP.项目编号=='XMSQ0125','片区编号'])]", "value", {}),
    ("体育馆那个项目这四个月还有多少钱没收回来？", "金额", "F", "(lambda f: (f.开票金额-f.收款金额).sum())(F.loc[F.项目编号=='XMSQ0103'])  # only 2月 short", "value", {}),
    ("档案馆那边的人，这四个月谁到手的最多？", "人员", "A", "one(A.loc[A.项目编号=='XMSQ0115'].groupby('姓名').税后工资.sum())  # 考勤 rows at XMSQ0115: 张凤英, 戚佳怡", "value", {}),
    ("客服那几个人，4月谁的晚班最多？", "人员", "B,E", "(lambda b: b.loc[one(cnt(b,'晚'))].姓名)(M(B,'2026-04').loc[M(B,'2026-04').工号.isin(" + job_ids('客服') + ")])  # 13, 9, 4", "value", {}),
    ("李晓峰管科创大厦是从几月份开始的？", "日期", "S", "S.loc[(S.工号==JOB['李晓峰'])&(S.项目编号=='XMSQ0112'),'开始年月'].iloc[0]", "value", {"accept": ["2025年12月"]}),
    ("2月有没有人又来加过班、又请过事假的？都有谁？", "人员", "A", "M(A,'2026-02').loc[(cnt(M(A,'2026-02'),'加')>0)&(cnt(M(A,'2026-02'),'事')>0),'姓名'].tolist()", "all", {}),
    ("科创大厦那边的人4月到手一共多少？", "金额", "A", "M(A,'2026-04').loc[M(A,'2026-04').项目编号=='XMSQ0112','税后工资'].sum()  # 吴建华, 何宇航, 陶明亮", "value", {}),
    ("蒋文斌跟钱国庆，3月谁的夜班多？多几个？", "比较", "B", CMP + "(cnt(M(B,'2026-03').loc[M(B,'2026-03').姓名.isin(['蒋文斌','钱国庆'])].set_index('姓名'),'夜'))  # 9 vs 7", "value",
     {"expected": "蒋文斌，多2个", "all_of": ["蒋文斌", "2"]}),
    ("监测中心那几台设备里，哪台启用得最晚？", "设备", "D", "D.loc[one(DT(D.loc[D.项目编号=='XMSQ0110','启用日期']))].设备编号", "value", {"all_of": ["SB-0110-003|1号空调机组"]}),
    ("人民医院那个标是谁投的？他电话多少？", "电话", "T,E", "(lambda w: [WHO[w], E.loc[E.工号==w,'联系电话'].iloc[0]])(T.loc[T.项目编号=='XMSQ0118','投标经办人工号'].iloc[0])", "all", {}),
    ("张丽娟管的那几个项目，一季度一共收回来多少钱？", "金额", "P,F", "F.loc[F.项目编号.isin(P.loc[P.项目负责人=='张丽娟','项目编号'])&F.年月.isin(" + Q1 + "),'收款金额'].sum()  # XMSQ0115 + XMSQ0120 (XMSQ0130 has no rows)", "value", {}),
    ("戚佳怡她们项目的负责人电话多少？", "电话", "E,P", "E.loc[E.姓名==P.loc[P.项目编号==E.loc[E.姓名=='戚佳怡','当前服务项目编号'].iloc[0],'项目负责人'].iloc[0],'联系电话'].iloc[0]  # XMSQ0115 -> 张丽娟", "value", {}),
    ("魏大勇管的那几台设备都是啥牌子的？", "列表", "D,E", "D.loc[D.设备责任人工号==JOB['魏大勇'],'制造厂商'].unique().tolist()", "all", {}),
    ("哪几个项目的保洁岗一个人都没到岗？", "列表", "G,P", "[NAME[p] for p in G.loc[(G.岗位=='保洁员')&(G.在岗人数==0),'项目编号']]", "all",
     {"all_of": ["赵巷镇政府|XMSQ0131", "工业园区|XMSQ0105", "环境监测中心|XMSQ0110", "科创大厦|XMSQ0112", "滨江公园|XMSQ0120", XIAYANG]}),
    ("吕秀英4月请事假是几号？", "日期", "A", "[d for d in DAYS if M(A,'2026-04').loc[M(A,'2026-04').姓名=='吕秀英',d].iloc[0]=='事']", "all",
     {"expected": "4月4日", "all_of": ["4月4日|04-04|4日"]}),
    ("买的那些耗材里，哪样花钱最多？", "其他", "C", "C.loc[one(C.loc[C.记录类型=='耗材采购','金额'])].名称", "value", {}),
    ("有消防证的那俩人，4月一共到手多少？", "金额", "Q,A", "M(A,'2026-04').loc[M(A,'2026-04').工号.isin(Q.loc[Q.证书名称=='消防设施操作员（四级）','工号']),'税后工资'].sum()  # 刘德明, 华国栋", "value", {}),
    ("北斗园区那边有几个消防栓？", "数量", "D", "None  # no hydrant inventory; 设备信息 has no row for XMSQ0152 (消防 rows are 消防水泵 elsewhere)", NONE, {}),
    ("体育馆那边有几块篮球场？", "数量", "P", "None  # no facility inventory (合同面积 only)", NONE, {}),
    ("1月那会儿检查，谁家得分最低？", "项目", "K", "None  # 检查日期 only 2026-02..04: no check in 2026-01", NONE, {}),
    ("王志强1月请的那天事假是为啥事？", "其他", "A", "None  # day code 事 only; no leave reason", NONE, {}),
    ("秦佳豪手机号多少？", "电话", "E", "None  # no 秦佳豪 (秦家豪 exists)", NONE, {}),
    ("青浦那个滨江公园合同签了多少钱？", "金额", "P", "None  # no 青浦-滨江公园 (徐汇-滨江公园 exists)", NONE, {}),
    ("工业园区那台1号客梯能到几层楼？", "数量", "D", "None  # no floors / stops field (规格型号 GeN2-MR 1000kg)", NONE, {}),
    ("人民医院那份合同是哪天签下来的？", "日期", "P,T", "None  # no signing date: 开始日期 is the contract start (2025-04-01), 中标日期 the award (2025-03-08)", NONE, {}),
]

B48 = [
    ("按市区统计，服务中项目的合同面积各是多少？", "分组", "P", "P.loc[P.服务状态=='服务中'].groupby('市区').合同面积.sum().to_dict()", "group", {}),
    ("服务中的项目里，实际毛利率高于20%的有哪些？", "列表", "P", "P.loc[(P.服务状态=='服务中')&(P.实际毛利率>0.2),'项目名称'].tolist()  # 0.212, 0.238, 0.218; next below 0.198", "all",
     {"all_of": ["文体中心|XMSQ0100", "工业园区|XMSQ0105", XIAYANG]}),
    ("项目片区关系表里，每个片区各挂了几个项目（含已结束的）？", "分组", "ZP,Z", "ZP.groupby(ZP.片区编号.map(" + ZNAME + ")).size().to_dict()  # XMSQ0112 sits under both", "group", {}),
    ("按投标经办人统计，每人经手的投标各中标了几次？", "分组", "T,E", "T.loc[T.中标结果=='中标'].groupby(T.投标经办人工号.map(WHO)).size().to_dict()", "group", {}),
    ("3月各岗位员工的加班小时合计分别是多少？", "分组", "A,E", "M(A,'2026-03').groupby(M(A,'2026-03').工号.map(" + POST + ")).加班小时.sum().to_dict()", "group", {}),
    ("4月保安的人均税后工资比保洁员高多少？", "金额", "A,E", "M(A,'2026-04').loc[M(A,'2026-04').工号.isin(E.loc[" + BAOAN + ",'工号']),'税后工资'].mean()-M(A,'2026-04').loc[M(A,'2026-04').工号.isin(" + job_ids('保洁员') + "),'税后工资'].mean()", "value", {}),
    ("1到4月的税后工资总额里，青浦管理处的员工占了百分之多少？", "比例", "A,E", "A.loc[A.工号.isin(E.loc[E.组织名称=='申勤物业青浦管理处','工号']),'税后工资'].sum()/A.税后工资.sum()", "value", {"pct": True}),
    ("服务中的项目客户投诉一共多少次？", "数量", "P", "P.loc[P.服务状态=='服务中','客户投诉'].sum()", "value", {}),
    ("维保合同按供应商汇总，合同金额各是多少？", "分组", "C", "C.loc[C.记录类型=='维保合同'].groupby('供应商名称').金额.sum().to_dict()", "group", {}),
    ("待修和报废设备的原值合计，占全部设备原值的比例是多少？", "比例", "D", "D.loc[D.完好状况.isin(['待修','报废']),'原值'].sum()/D.原值.sum()", "value", {"pct": True}),
    ("检查得分低于85分、并且已经整改的检查有几条？", "数量", "K", "((K.检查得分<85)&(K.整改情况=='已整改')).sum()", "value", {}),
    ("持证员工里，青浦管理处和徐汇管理处哪边人多？多几个？", "比较", "Q,E", CMP + "(E.loc[E.工号.isin(Q.工号)].groupby('组织名称').size())", "value",
     {"expected": "青浦管理处，多6人", "all_of": ["青浦管理处|青浦", "6"]}),
    ("标准工时人数和在岗人数对不上的是哪个项目？", "项目", "G,P", "single([NAME[p] for p in G.loc[G.标准工时人数!=G.在岗人数,'项目编号'].unique()])", "value", {"all_of": [XIAYANG]}),
    ("按岗位字典的员工层级统计，在职员工各有多少人？", "分组", "W,E", "E.loc[" + ZAIZHI + "].groupby(E.岗位名称.map(" + LAYER + ")).size().to_dict()", "group", {}),
    ("4月全公司的出勤天数合计比1月少了多少天？", "数量", "A", "M(A,'2026-01').上班天数.sum()-M(A,'2026-04').上班天数.sum()  # 687 - 661", "value", {}),
    ("4月排班里早班、中班、夜班各排了多少个？", "分组", "B", "{c: int(cnt(M(B,'2026-04'),c).sum()) for c in ['早','中','夜']}", "group", {"all_of": ["147", "101", "99"]}),
    ("王志强和陈慧敏负责的服务中项目，1到4月开票合计谁更高？高多少？", "比较", "P,F", CMP + "(F.loc[F.项目编号.isin(P.loc[(P.服务状态=='服务中')&P.项目负责人.isin(['王志强','陈慧敏']),'项目编号'])].groupby(F.项目编号.map(dict(zip(P.项目编号,P.项目负责人)))).开票金额.sum())", "value",
     {"expected": "王志强，高1002484.05元", "all_of": ["王志强", "1002484.05"]}),
    ("保安_领班和保安_普保，4月人均加班小时谁更高？高多少？", "比较", "A,E", CMP + "(M(A,'2026-04').groupby(M(A,'2026-04').工号.map(" + POST + ")).加班小时.mean()[['保安_领班','保安_普保']])", "value",
     {"expected": "保安_普保，高0.8小时", "all_of": ["保安_普保|普保", "0.8"]}),
    ("4月回款率（收款除以开票）低于85%的项目有哪些？", "列表", "F,P", "[NAME[p] for p in M(F,'2026-04').loc[M(F,'2026-04').收款金额/M(F,'2026-04').开票金额<0.85,'项目编号']]  # 0.80 each; the others 0.90 or 1", "all",
     {"all_of": ["赵巷镇政府|XMSQ0131", "区档案馆|XMSQ0115", "人民医院|XMSQ0118"]}),
    ("按项目负责人看，服务中项目的合同面积合计谁最大？", "人员", "P", "one(P.loc[P.服务状态=='服务中'].groupby('项目负责人').合同面积.sum())  # 张丽娟 159000, 王志强 158000", "value", {}),
    ("青浦-人民医院的年化合同额占全部服务中项目年化合同额的百分之几？", "比例", "P", "P.loc[P.项目编号=='XMSQ0118','年化合同额'].iloc[0]/P.loc[P.服务状态=='服务中','年化合同额'].sum()", "value", {"pct": True}),
    ("3月各项目员工税后工资合计占该项目3月开票金额的比例，哪个项目最高？", "项目", "A,F,P", "(lambda a, f: NAME[one((a/f).dropna())])(M(A,'2026-03').groupby('项目编号').税后工资.sum(), M(F,'2026-03').set_index('项目编号').开票金额)  # XMSQ0110 0.351; next XMSQ0102 0.318", "value", {"all_of": ["环境监测中心|XMSQ0110"]}),
    ("何宇航所在项目的合同哪天到期？合同金额是多少？", "日期", "E,P", "(lambda p: P.loc[P.项目编号==p,['结束日期','合同金额']].iloc[0].tolist())(E.loc[E.姓名=='何宇航','当前服务项目编号'].iloc[0])  # XMSQ0112", "all",
     {"all_of": ["2028-11-30", "5850000|585万"]}),
    ("有待修设备的项目，项目负责人分别是谁？", "列表", "D,P", "[P.loc[P.项目编号==p,'项目负责人'].iloc[0] for p in D.loc[D.完好状况=='待修','项目编号']]", "all", {}),
    ("做过月度品质检查的项目里，哪个客户满意度最低？", "项目", "K,P", "NAME[one(P.set_index('项目编号').客户满意度[K.loc[K.检查类型=='月度品质检查','项目编号'].unique()], top=False)]  # 87.7 (XMSQ0102); 89.1, 91.2, 94.0", "value", {"all_of": ["区图书馆|XMSQ0102"]}),
    ("持有高压电工作业证、名下又有设备的人当中，谁负责的设备原值合计最少？", "人员", "Q,D,E", "WHO[one(D.loc[D.设备责任人工号.isin(Q.loc[Q.证书名称=='高压电工作业','工号'])].groupby('设备责任人工号').原值.sum(), top=False)]  # 陶明亮 has no device", "value", {}),
    ("4月比3月，加班小时增加最多的员工是谁？", "人员", "A", "one((M(A,'2026-04').set_index('姓名').加班小时-M(A,'2026-03').set_index('姓名').加班小时).dropna())  # 许建军 has no 3月 row (4月 12 at most)", "value", {}),
    ("1到4月全公司累计开票减去累计收款，还差多少？", "金额", "F", "(F.开票金额-F.收款金额).sum()", "value", {}),
    ("青浦-文体中心连同它下属的子项目，4月收款合计多少？", "金额", "P,F", "M(F,'2026-04').loc[M(F,'2026-04').项目编号.isin(P.loc[(P.项目编号=='XMSQ0100')|(P.上级项目编号=='XMSQ0100'),'项目编号']),'收款金额'].sum()", "value", {}),
    ("中标的那几次投标，平均投标金额是多少？", "金额", "T", "T.loc[T.中标结果=='中标','投标金额'].mean()", "value", {}),
    ("4月保洁员里，税后工资高于保洁员平均水平的有谁？", "列表", "A,E", "(lambda a: a.loc[a.税后工资>a.税后工资.mean(),'姓名'].tolist())(M(A,'2026-04').loc[M(A,'2026-04').工号.isin(" + job_ids('保洁员') + ")])", "all", {}),
    ("郑晓东3月调过去的那个项目，项目负责人1到4月税后工资一共多少？", "金额", "S,P,A", "A.loc[A.姓名==P.loc[P.项目编号==" + ZHENG_NEW + ",'项目负责人'].iloc[0],'税后工资'].sum()  # XMSQ0152 -> 陈慧敏", "value", {}),
    ("2021年那几次投标，中标率是多少？", "比例", "T", "None  # T.年份 only 2022..2026: no 2021 bid", NONE, {}),
    ("青浦片区和徐汇片区的管理费分摊比例各是多少？", "比例", "Z", "None  # no overhead allocation in any template", NONE, {}),
    ("徐汇-文化馆目前的实际毛利率和客户满意度分别是多少？", "比例", "P", "None  # XMSQ0130 is 未开始: 实际毛利率 and 客户满意度 are empty", NONE, {}),
    ("1到4月各项目一共发生了几起安全事故？", "数量", "K", "None  # no incident records (检查记录 holds checks and 问题描述 only)", NONE, {}),
    ("公司给各项目买的公众责任险，一年保费多少？", "金额", "C", "None  # no insurance records", NONE, {}),
    ("姜雨婷和戚佳怡，3月谁接的客户来电更多？", "人员", "B", "None  # no call records (排班 shift codes only)", NONE, {}),
    ("上海迅达电梯有限公司的服务质量评分是多少？", "数量", "C", "None  # no supplier rating (状态 合作中 only)", NONE, {}),
    ("蒋文彬和冯志远4月谁加班多？多几个小时？", "人员", "A", "None  # no 蒋文彬 (蒋文斌 exists)", NONE, {}),
]


if __name__ == "__main__":
    for _b in (B46, B47, B48):
        p34._check_groups(_b)
    base.write_batches([(46, p40._prep(B46)), (47, p40._prep(B47)), (48, p40._prep(B48))], refusals=8)
