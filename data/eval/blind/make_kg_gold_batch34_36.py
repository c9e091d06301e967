"""Fresh blind KG batches 34-36 (issue #15, eleventh fresh round, KG part): computes every gold answer
with pandas straight from the sample spreadsheets (data/samples/business/*.xlsx) and writes
kg_batch_{34,35,36}.jsonl next to this file. Written by a writer who did not read the engine, its
rules, the golden sets, the tests or the old batch files' questions (beyond those quoted in README.md,
in the earlier round notes and in the gold scripts this one imports, which were avoided), and who did
not run the engine or the scorer on these questions.

Same conventions as make_kg_gold_batch31_33.py (frames P E S Z ZP F A B T G D C K Q W, `cnt`, `pid`,
`NAME`, `WHO` 工号 -> 姓名, `JOB` 姓名 -> 工号, `M(df, ym)` rows of one 年月, `one(series)` the single
index of a maximum/minimum, asserting there is no tie, `DT` = pd.to_datetime). The pandas expression
is kept in each record's "source"; expected null = not in the data. Bare months mean 2026. Relative
dates are read against the KG run's ZHICE_TODAY=2026-05-01: 今年 = 2026, 去年 = 2025; 一季度 =
2026-01..03. Month golds are written 2026-MM and also accept "M月"; the month keys of a per-month
group answer accept either form. Two-entity comparisons (kind 比较) carry a hand-written gold
"winner, difference" that `_months` (imported) checks against the computed pair.

    .venv/bin/python data/eval/blind/make_kg_gold_batch34_36.py
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kg_gold as base  # noqa: E402
import make_kg_gold_batch28_30 as p28  # noqa: E402,F401  (registers WHO, JOB, M, one, W, DT in base.NS)
import make_kg_gold_batch31_33 as p31  # noqa: E402  (_months: month accepts, comparison check)

NONE = "none"  # not answerable from the spreadsheets: expected null
base.NS["DAYS"] = base.DAYS
Q1 = p28.Q1  # 一季度 = ['2026-01','2026-02','2026-03']
BAOAN = p28.BAOAN  # 保安 = 保安_领班 + 保安_普保
XIAYANG = p28.XIAYANG
ZAIZHI = "E.离职日期.isna()"


def job_ids(post: str) -> str:
    """Expression: the 工号 of everyone whose 岗位名称 is ``post``."""
    return f"E.loc[E.岗位名称=='{post}','工号']"


B34 = [
    ("施桂兰的手机号是多少？", "电话", "E", "E.loc[E.姓名=='施桂兰','联系电话'].iloc[0]", "value", {}),
    ("谢梦瑶是哪天入职的？", "日期", "E", "E.loc[E.姓名=='谢梦瑶','入职日期'].iloc[0]", "value", {}),
    ("徐汇-环境监测中心的合同是从哪天开始的？", "日期", "P", "P.loc[P.项目名称=='徐汇-环境监测中心','开始日期'].iloc[0]", "value", {}),
    ("徐汇-科创大厦的甲方是哪家公司？", "单位", "P", "P.loc[P.项目名称=='徐汇-科创大厦','甲方名称'].iloc[0]", "value", {}),
    ("SB-0118-002是什么设备？装在哪儿？", "设备", "D", "D.loc[D.设备编号=='SB-0118-002',['设备名称','安装位置']].iloc[0].tolist()", "all", {}),
    ("SB-0110-003是哪个厂家生产的？", "其他", "D", "D.loc[D.设备编号=='SB-0110-003','制造厂商'].iloc[0]", "value", {}),
    ("孙海涛持有什么证书？", "列表", "Q", "Q.loc[Q.姓名=='孙海涛','证书名称'].tolist()", "all", {"all_of": ["保安员"]}),
    ("青浦-老城厢停车场2023年那次投标结果怎么样？", "状态", "T", "T.loc[(T.项目编号=='XMSQ0099')&(T.年份=='2023'),'中标结果'].iloc[0]", "value", {}),
    ("在职员工里共青团员有几个？", "数量", "E", "(" + ZAIZHI + "&(E.政治面貌=='共青团员')).sum()", "value", {}),
    ("2022年入职的员工有几个？", "数量", "E", "E.入职日期.str.startswith('2022').sum()  # none of them has left", "value", {}),
    ("4月所有项目的收款金额合计是多少？", "金额", "F", "M(F,'2026-04').收款金额.sum()", "value", {}),
    ("3月全公司的餐费一共发了多少？", "金额", "A", "M(A,'2026-03').餐费.sum()", "value", {}),
    ("工程维修岗位4月的平均税后工资是多少？", "金额", "A,E", "M(A,'2026-04').loc[M(A,'2026-04').工号.isin(" + job_ids('工程维修') + "),'税后工资'].mean()", "value", {}),
    ("1到4月税后工资加起来最高的是谁？", "人员", "A", "one(A.groupby('姓名').税后工资.sum())", "value", {}),
    ("服务中的项目里，合同金额最小的是哪个？", "项目", "P", "P.loc[one(P.loc[P.服务状态=='服务中','合同金额'], top=False)].项目名称", "value", {"all_of": [XIAYANG]}),
    ("在职员工按性别分，男女各有多少人？", "分组", "E", "E.loc[" + ZAIZHI + "].groupby('性别').size().to_dict()", "group", {}),
    ("1到4月每个月全公司的加班小时合计分别是多少？", "分组", "A", "A.groupby('年月').加班小时.sum().to_dict()", "group", {}),
    ("青浦-工业园区3月的开票金额是多少？", "金额", "F", "M(F,'2026-03').loc[M(F,'2026-03').项目编号=='XMSQ0105','开票金额'].iloc[0]", "value", {}),
    ("一季度徐汇-滨江公园一共收款多少？", "金额", "F", "F.loc[(F.项目编号=='XMSQ0120')&F.年月.isin(" + Q1 + "),'收款金额'].sum()", "value", {}),
    ("青浦-文体中心和青浦-工业园区，哪个合同面积大？大多少？", "比较", "P", "(lambda s: (s.idxmax(), s.max()-s.min()))(P.loc[P.项目编号.isin(['XMSQ0100','XMSQ0105'])].set_index('项目名称').合同面积)", "value",
     {"expected": "青浦-工业园区，大46000平方米", "all_of": ["工业园区", "46000"]}),
    ("原值超过40万的设备有几台？", "数量", "D", "(D.原值>400000).sum()", "value", {}),
    ("哪些设备现在不是完好状态？", "列表", "D", "D.loc[D.完好状况!='完好','设备编号'].tolist()", "all", {}),
    ("华国栋3月请过假吗？请的什么假？", "列表", "A", "[c for c in M(A,'2026-03').loc[M(A,'2026-03').姓名=='华国栋', DAYS].iloc[0] if c in ('事','病','年','调')]", "all",
     {"expected": "年假、病假", "all_of": ["年假|年休假", "病假"]}),
    ("施桂兰2月排了几个白班？", "数量", "B", "cnt(M(B,'2026-02').loc[M(B,'2026-02').姓名=='施桂兰'],'白').iloc[0]", "value", {}),
    ("钱国庆3月旷工了几天？", "数量", "A", "cnt(M(A,'2026-03').loc[M(A,'2026-03').姓名=='钱国庆'],'旷').iloc[0]", "value", {}),
    ("青浦片区负责人的手机号是多少？", "电话", "Z,E", "E.loc[E.工号==Z.loc[Z.片区名称=='青浦片区','片区负责人工号'].iloc[0],'联系电话'].iloc[0]", "value", {}),
    ("刘德明现在所在的项目，甲方是哪家？", "单位", "E,P", "P.loc[P.项目编号==E.loc[E.姓名=='刘德明','当前服务项目编号'].iloc[0],'甲方名称'].iloc[0]", "value", {}),
    ("华国栋负责的设备原值加起来多少？", "金额", "D,E", "D.loc[D.设备责任人工号==JOB['华国栋'],'原值'].sum()", "value", {"accept": ["241.2万"]}),
    ("徐汇片区的项目客户投诉一共多少次？", "数量", "ZP,P", "P.loc[P.项目编号.isin(ZP.loc[ZP.片区编号=='PQ02','项目编号']),'客户投诉'].sum()", "value", {}),
    ("青浦-人民医院保洁员的项目编制是几个？", "数量", "G", "G.loc[(G.项目编号=='XMSQ0118')&(G.岗位=='保洁员'),'项目编制'].iloc[0]", "value", {}),
    ("洗地机的单价是多少？", "金额", "C", "C.loc[C.名称=='洗地机','单价'].iloc[0]", "value", {"accept": ["2.68万"]}),
    ("客户满意度回访一共做了几次？", "数量", "K", "(K.检查类型=='客户满意度回访').sum()", "value", {}),
    ("施桂兰入职前在哪家单位工作？", "单位", "E", "None  # no 工作经历 field", NONE, {}),
    ("SB-0105-001这台电梯今年坏过几次？", "数量", "D", "None  # no 故障/维修 records (完好状况 only)", NONE, {}),
    ("周建华的工号是多少？", "编号", "E", "None  # no 周建华 (周建国, 吴建华 exist)", NONE, {}),
    ("徐汇-人民医院的合同金额是多少？", "金额", "P", "None  # no 徐汇-人民医院 (青浦-人民医院 exists)", NONE, {}),
    ("SB-0103-001是什么设备？", "设备", "D", "None  # XMSQ0103 has no devices in 设备信息", NONE, {}),
    ("2025年11月全公司开票多少？", "金额", "F", "None  # F.年月 only 2026-01..04", NONE, {}),
    ("青浦-夏阳街道社区中心1月收了多少钱？", "金额", "F", "None  # XMSQ0125 starts 2026-03: no 2026-01 row in F", NONE, {}),
    ("黄浦片区有几个项目？", "数量", "Z", "None  # only 青浦片区, 徐汇片区", NONE, {}),
]

B35 = [
    ("吴建华现在在哪个项目上班？", "项目", "E,P", "NAME[E.loc[E.姓名=='吴建华','当前服务项目编号'].iloc[0]]", "value", {"all_of": ["科创大厦|XMSQ0112"]}),
    ("魏大勇是什么职级？", "其他", "E", "E.loc[E.姓名=='魏大勇','职级'].iloc[0]", "value", {}),
    ("徐汇-滨江公园的委托方式是什么？", "类别", "P", "P.loc[P.项目名称=='徐汇-滨江公园','委托方式'].iloc[0]", "value", {}),
    ("青浦-人民医院的合同哪天到期？", "日期", "P", "P.loc[P.项目名称=='青浦-人民医院','结束日期'].iloc[0]", "value", {}),
    ("SB-0105-004装在什么位置？", "其他", "D", "D.loc[D.设备编号=='SB-0105-004','安装位置'].iloc[0]", "value", {}),
    ("青浦-体育馆那次投标报了多少钱？", "金额", "T", "T.loc[T.项目编号=='XMSQ0103','投标金额'].iloc[0]", "value", {"accept": ["370万"]}),
    ("监控硬盘录像机买了几台？", "数量", "C", "C.loc[C.名称=='监控硬盘录像机','数量'].iloc[0]", "value", {}),
    ("上海凯泉的设备原值一共多少？", "金额", "D", "D.loc[D.制造厂商=='上海凯泉','原值'].sum()", "value", {"accept": ["31万"]}),
    ("3月税后工资不到4000的有几个人？", "数量", "A", "(M(A,'2026-03').税后工资<4000).sum()", "value", {}),
    ("服务中的项目里，客户投诉2次及以上的有几个？", "数量", "P", "((P.服务状态=='服务中')&(P.客户投诉>=2)).sum()", "value", {}),
    ("4月全公司的值班费一共多少？", "金额", "A", "M(A,'2026-04').值班费.sum()", "value", {}),
    ("青浦-体育馆1到4月一共收款多少？", "金额", "F", "F.loc[F.项目编号=='XMSQ0103','收款金额'].sum()", "value", {}),
    ("保安_普保4月平均加班多少小时？", "数量", "A,E", "M(A,'2026-04').loc[M(A,'2026-04').工号.isin(" + job_ids('保安_普保') + "),'加班小时'].mean()", "value", {}),
    ("项目经理1月的平均税后工资是多少？", "金额", "A,E", "M(A,'2026-01').loc[M(A,'2026-01').工号.isin(" + job_ids('项目经理') + "),'税后工资'].mean()", "value", {}),
    ("1月税后工资最低的是谁？", "人员", "A", "M(A,'2026-01').loc[one(M(A,'2026-01').税后工资, top=False)].姓名", "value", {}),
    ("哪个项目的合同面积最大？", "项目", "P", "P.loc[one(P.合同面积)].项目名称", "value", {"all_of": ["滨江公园|XMSQ0120"]}),
    ("1到4月加班小时加起来最多的是谁？", "人员", "A", "one(A.groupby('姓名').加班小时.sum())", "value", {}),
    ("3月各管理处员工的税后工资合计分别是多少？", "分组", "A,E", "M(A,'2026-03').assign(组织=M(A,'2026-03').工号.map(dict(zip(E.工号,E.组织名称)))).groupby('组织').税后工资.sum().to_dict()", "group",
     {"all_of": ["57027.67", "118800.06", "徐汇", "青浦"]}),
    ("按设备类型分，各有几台设备？", "分组", "D", "D.groupby('设备类型').size().to_dict()", "group", {}),
    ("4月全公司开票比3月少了多少？", "金额", "F", "M(F,'2026-03').开票金额.sum()-M(F,'2026-04').开票金额.sum()  # > 0: 4月 is lower", "value", {}),
    ("孙海涛一季度一共加班多少小时？", "数量", "A", "A.loc[(A.姓名=='孙海涛')&A.年月.isin(" + Q1 + "),'加班小时'].sum()", "value", {}),
    ("韩立新和朱俊杰4月谁的税后工资高？高多少？", "比较", "A", "(lambda s: (s.idxmax(), s.max()-s.min()))(M(A,'2026-04').loc[M(A,'2026-04').姓名.isin(['韩立新','朱俊杰'])].set_index('姓名').税后工资)", "value",
     {"expected": "韩立新，高2.82元", "all_of": ["韩立新", "2.82"]}),
    ("1月开票超过15万的项目有哪些？", "列表", "F,P", "[NAME[p] for p in M(F,'2026-01').loc[M(F,'2026-01').开票金额>150000,'项目编号']]", "all",
     {"all_of": ["文体中心|XMSQ0100", "工业园区|XMSQ0105", "科创大厦|XMSQ0112", "人民医院|XMSQ0118"]}),
    ("3月一个小时都没加班的保安有谁？", "列表", "A,E", "M(A,'2026-03').loc[M(A,'2026-03').工号.isin(E.loc[" + BAOAN + ",'工号'])&(M(A,'2026-03').加班小时==0),'姓名'].tolist()", "all", {}),
    ("1月请事假的都有谁？", "列表", "A", "M(A,'2026-01').loc[cnt(M(A,'2026-01'),'事')>0,'姓名'].tolist()", "all", {}),
    ("杨振华4月排了几个中班？", "数量", "B", "cnt(M(B,'2026-04').loc[M(B,'2026-04').姓名=='杨振华'],'中').iloc[0]", "value", {}),
    ("徐汇-区档案馆哪个月收款最少？", "日期", "F", "one(F.loc[F.项目编号=='XMSQ0115'].set_index('年月').收款金额, top=False)", "value", {}),
    ("有消防设施操作员证的人，现在各在哪个项目？", "列表", "Q,E,P", "[NAME[p] for p in E.loc[E.工号.isin(Q.loc[Q.证书名称=='消防设施操作员（四级）','工号']),'当前服务项目编号']]", "all",
     {"all_of": ["区图书馆|XMSQ0102", "工业园区|XMSQ0105"]}),
    ("周建国负责的项目一共登记了几台设备？", "数量", "P,D", "D.项目编号.isin(P.loc[P.项目负责人=='周建国','项目编号']).sum()", "value", {}),
    ("徐汇片区的负责人是谁？他自己负责几个项目？", "人员", "Z,E,P", "(lambda w: [w, f\"{(P.项目负责人==w).sum()}个\"])(WHO[Z.loc[Z.片区名称=='徐汇片区','片区负责人工号'].iloc[0]])", "all",
     {"expected": "李晓峰，2个", "all_of": ["李晓峰", "2个|两个"]}),
    ("青浦-北斗园区现在这期合同的合同面积是多少？", "数量", "P", "P.loc[(P.项目名称=='青浦-北斗园区')&(P.服务状态=='服务中'),'合同面积'].iloc[0]", "value", {"accept": ["5.6万"]}),
    ("青浦-体育馆的上级项目是哪个？", "项目", "P", "NAME[P.loc[P.项目名称=='青浦-体育馆','上级项目编号'].iloc[0]]", "value", {"all_of": ["文体中心|XMSQ0100"]}),
    ("魏大勇的电子邮箱是多少？", "其他", "E", "None  # no 邮箱 field", NONE, {}),
    ("谢梦瑶的试用期到哪天结束？", "日期", "E", "None  # no 试用期 field (入职日期 only)", NONE, {}),
    ("王志刚负责哪些项目？", "列表", "P", "None  # no 王志刚 (王志强 exists)", NONE, {}),
    ("徐汇-北斗园区的甲方是谁？", "单位", "P", "None  # no 徐汇-北斗园区 (青浦-北斗园区 exists)", NONE, {}),
    ("XMSQ0111是哪个项目？", "项目", "P", "None  # no XMSQ0111 (XMSQ0110, XMSQ0112 exist)", NONE, {}),
    ("去年3月全公司发了多少税后工资？", "金额", "A", "None  # 去年3月 = 2025-03 (ZHICE_TODAY=2026-05-01); A.年月 only 2026-01..04", NONE, {}),
    ("邹红梅3月上了几天班？", "数量", "A", "None  # 邹红梅 has no row in 考勤 (nor in 排班)", NONE, {}),
    ("虹口片区的负责人是谁？", "人员", "Z", "None  # only 青浦片区, 徐汇片区", NONE, {}),
]

B36 = [
    ("华国栋电话多少来着？", "电话", "E", "E.loc[E.姓名=='华国栋','联系电话'].iloc[0]", "value", {}),
    ("孔美玲现在派在哪个项目？", "项目", "E,P", "NAME[E.loc[E.姓名=='孔美玲','当前服务项目编号'].iloc[0]]", "value", {"all_of": ["人民医院|XMSQ0118"]}),
    ("文体中心那边甲方是哪个单位？", "单位", "P", "P.loc[P.项目编号=='XMSQ0100','甲方名称'].iloc[0]", "value", {}),
    ("科创大厦合同签了多少钱？", "金额", "P", "P.loc[P.项目编号=='XMSQ0112','合同金额'].iloc[0]", "value", {"accept": ["585万"]}),
    ("滨江公园那个项目谁在管？", "人员", "P", "P.loc[P.项目编号=='XMSQ0120','项目负责人'].iloc[0]", "value", {}),
    ("工业园区那台2号空调机组现在还能用不？", "状态", "D", "D.loc[(D.项目编号=='XMSQ0105')&(D.设备名称=='2号空调机组'),'完好状况'].iloc[0]", "value", {}),
    ("人民医院的监控主机是哪家牌子的？", "其他", "D", "D.loc[(D.项目编号=='XMSQ0118')&(D.设备类型=='安防'),'制造厂商'].iloc[0]", "value", {}),
    ("夏阳那个标是哪天中的？", "日期", "T", "T.loc[T.项目编号=='XMSQ0125','中标日期'].iloc[0]", "value", {}),
    ("咱们00后的员工有几个？", "数量", "E", "(E.出生日期>='2000-01-01').sum()", "value", {}),
    ("徐汇管理处有几个党员？", "数量", "E", "((E.组织名称=='申勤物业徐汇管理处')&(E.政治面貌=='中共党员')).sum()", "value", {}),
    ("4月大伙到手工资一共发了多少？", "金额", "A", "M(A,'2026-04').税后工资.sum()", "value", {}),
    ("北斗园区这四个月一共开了多少票？", "金额", "F", "F.loc[F.项目编号.isin(P.loc[P.项目名称=='青浦-北斗园区','项目编号']),'开票金额'].sum()  # only XMSQ0152 has rows", "value", {}),
    ("保洁阿姨们2月平均到手多少？", "金额", "A,E", "M(A,'2026-02').loc[M(A,'2026-02').工号.isin(" + job_ids('保洁员') + "),'税后工资'].mean()", "value", {}),
    ("1月谁上班天数最多？", "人员", "A", "M(A,'2026-01').loc[one(M(A,'2026-01').上班天数)].姓名", "value", {}),
    ("服务中的项目里哪个满意度最低？", "项目", "P", "P.loc[one(P.loc[P.服务状态=='服务中','客户满意度'], top=False)].项目编号", "value", {"expected": "青浦-北斗园区（XMSQ0152）", "all_of": ["北斗园区|XMSQ0152"]}),
    ("张凤英哪个月加班最多？", "日期", "A", "one(A.loc[A.姓名=='张凤英'].set_index('年月').加班小时)", "value", {}),
    ("按细分业态看，服务中的项目各有几个？", "分组", "P", "P.loc[P.服务状态=='服务中'].groupby('细分业态').size().to_dict()", "group", {}),
    ("青浦和徐汇两边服务中项目的合同金额各是多少？", "分组", "P", "P.loc[P.服务状态=='服务中'].groupby('市区').合同金额.sum().to_dict()", "group",
     {"all_of": ["11770000|1177万", "37945600|3794.56万", "徐汇", "青浦"]}),
    ("人民医院4月比3月多开了多少票？", "金额", "F", "(lambda f: f['2026-04']-f['2026-03'])(F.loc[F.项目编号=='XMSQ0118'].set_index('年月').开票金额)", "value", {}),
    ("一季度科创大厦收了多少钱？", "金额", "F", "F.loc[(F.项目编号=='XMSQ0112')&F.年月.isin(" + Q1 + "),'收款金额'].sum()", "value", {}),
    ("吕秀英和施桂兰3月谁到手多？多多少？", "比较", "A", "(lambda s: (s.idxmax(), s.max()-s.min()))(M(A,'2026-03').loc[M(A,'2026-03').姓名.isin(['吕秀英','施桂兰'])].set_index('姓名').税后工资)", "value",
     {"expected": "施桂兰，多80.7元", "all_of": ["施桂兰", "80.7"]}),
    ("4月到手过万的有几个人？", "数量", "A", "(M(A,'2026-04').税后工资>10000).sum()", "value", {}),
    ("服务中的项目里，合同面积超过5万平的有哪些？", "列表", "P", "P.loc[(P.服务状态=='服务中')&(P.合同面积>50000),'项目名称'].tolist()", "all",
     {"all_of": ["北斗园区|XMSQ0152", "工业园区|XMSQ0105", "人民医院|XMSQ0118", "滨江公园|XMSQ0120"]}),
    ("4月收款跟开票对不上的项目有哪些？", "列表", "F,P", "[NAME[p] for p in M(F,'2026-04').loc[M(F,'2026-04').收款金额!=M(F,'2026-04').开票金额,'项目编号']]", "all",
     {"all_of": ["区图书馆|XMSQ0102", "赵巷镇政府|XMSQ0131", "工业园区|XMSQ0105", "区档案馆|XMSQ0115", "人民医院|XMSQ0118"]}),
    ("3月有人调休吗？是谁？", "列表", "A", "M(A,'2026-03').loc[cnt(M(A,'2026-03'),'调')>0,'姓名'].tolist()", "all", {}),
    ("陶明亮3月上了几个24小时班？", "数量", "B", "cnt(M(B,'2026-03').loc[M(B,'2026-03').姓名=='陶明亮'],'全').iloc[0]", "value", {}),
    ("许建军4月旷了几天工？", "数量", "A", "cnt(M(A,'2026-04').loc[M(A,'2026-04').姓名=='许建军'],'旷').iloc[0]", "value", {}),
    ("王志强手下那几个项目4月一共收了多少钱？", "金额", "P,F", "M(F,'2026-04').loc[M(F,'2026-04').项目编号.isin(P.loc[P.项目负责人=='王志强','项目编号']),'收款金额'].sum()", "value", {}),
    ("区图书馆的那几台设备是谁在负责？", "人员", "D,E", "[WHO[w] for w in D.loc[D.项目编号=='XMSQ0102','设备责任人工号'].unique()]", "all", {}),
    ("人民医院的工程维修师傅是谁？", "人员", "E", "E.loc[(E.岗位名称=='工程维修')&(E.当前服务项目编号=='XMSQ0118'),'姓名'].tolist()", "all", {}),
    ("档案馆的客服是谁？", "人员", "E", "E.loc[(E.岗位名称=='客服')&(E.当前服务项目编号=='XMSQ0115'),'姓名'].tolist()", "all", {}),
    ("对讲机电池多少钱一块？", "金额", "C", "C.loc[C.名称=='对讲机电池','单价'].iloc[0]", "value", {}),
    ("华国栋那几本证是在哪个机构考的？", "单位", "Q", "None  # no 发证机构 field", NONE, {}),
    ("科创大厦有多少户业主？", "数量", "P", "None  # no 户数/业主 field", NONE, {}),
    ("李晓明电话多少？", "电话", "E", "None  # no 李晓明 (李晓峰 exists)", NONE, {}),
    ("青浦-文化中心的合同到哪天？", "日期", "P", "None  # no 青浦-文化中心 (青浦-文体中心, 徐汇-文化馆 exist)", NONE, {}),
    ("SB-0131-001现在啥状态？", "状态", "D", "None  # XMSQ0131 has no devices in 设备信息", NONE, {}),
    ("去年4月份全公司开了多少票？", "金额", "F", "None  # 去年4月 = 2025-04 (ZHICE_TODAY=2026-05-01); F.年月 only 2026-01..04", NONE, {}),
    ("保洁推车是从哪家供应商买的？", "单位", "C", "None  # 保洁推车's 供应商名称 is empty", NONE, {}),
    ("金山片区有哪些项目？", "列表", "Z", "None  # only 青浦片区, 徐汇片区", NONE, {}),
]

def _check_groups(batch: list) -> None:
    """A group answer with a hand-written all_of (short area names, 万 forms): every number item
    (either side of a "|") must be one of the computed values, so the written items cannot drift."""
    for q, kind, frames, expr, how, extra in batch:
        if how == "group" and "all_of" in extra:
            vals = {base.fmt(x) for x in eval(expr, base.NS).values()}  # noqa: S307 - our own expressions
            for item in extra["all_of"]:
                first = item.split("|")[0]
                if first.replace(".", "").isdigit():
                    assert first in vals, (q, item, vals)


if __name__ == "__main__":
    for _b in (B34, B35, B36):
        _check_groups(_b)
    base.write_batches([(34, p31._months(B34)), (35, p31._months(B35)), (36, p31._months(B36))], refusals=8)
