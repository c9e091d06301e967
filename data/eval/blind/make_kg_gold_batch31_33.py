"""Fresh blind KG batches 31-33 (issue #15, tenth fresh round, KG part): computes every gold answer
with pandas straight from the sample spreadsheets (data/samples/business/*.xlsx) and writes
kg_batch_{31,32,33}.jsonl next to this file. Written by a writer who did not read the engine, its
rules, the golden sets or the old batches' questions (beyond those quoted in README.md and in the
gold scripts this one imports, which were avoided), and who did not run the engine on these
questions.

Same conventions as make_kg_gold_batch28_30.py (frames P E S Z ZP F A B T G D C K Q W, `cnt`, `pid`,
`NAME`, `WHO` 工号 -> 姓名, `JOB` 姓名 -> 工号, `M(df, ym)` rows of one 年月, `one(series)` the single
index of a maximum/minimum, asserting there is no tie, `DT` = pd.to_datetime). The pandas expression
is kept in each record's "source"; expected null = not in the data. Bare months mean 2026. Relative
dates are read against the KG run's ZHICE_TODAY=2026-05-01: 今年 = 2026, 去年 = 2025, 这个月 = 2026-05,
下个月 = 2026-06; 一季度 = 2026-01..03. Month golds are written 2026-MM and also accept "M月".

    .venv/bin/python data/eval/blind/make_kg_gold_batch31_33.py
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kg_gold as base  # noqa: E402
import make_kg_gold_batch28_30 as prev  # noqa: E402,F401  (registers WHO, JOB, M, one, W, DT in base.NS)

NONE = "none"  # not answerable from the spreadsheets: expected null
Q1 = prev.Q1  # 一季度 = ['2026-01','2026-02','2026-03']
BAOAN = prev.BAOAN  # 保安 = 保安_领班 + 保安_普保
MON = {"2026-01": "1月", "2026-02": "2月", "2026-03": "3月", "2026-04": "4月"}


def month_item(ym: str) -> str:
    """An all_of item for a month key: the 2026-MM form or the bare M月 form."""
    return f"{ym}|{MON[ym]}"


B31 = [
    ("陈慧敏的联系电话是多少？", "电话", "E", "E.loc[E.姓名=='陈慧敏','联系电话'].iloc[0]", "value", {}),
    ("青浦-工业园区的甲方是哪家单位？", "单位", "P", "P.loc[P.项目名称=='青浦-工业园区','甲方名称'].iloc[0]", "value", {}),
    ("金建平属于哪个管理处？", "部门", "E", "E.loc[E.姓名=='金建平','组织名称'].iloc[0]", "value", {"accept": ["徐汇管理处"]}),
    ("徐汇-区档案馆的合同哪天到期？", "日期", "P", "P.loc[P.项目名称=='徐汇-区档案馆','结束日期'].iloc[0]", "value", {}),
    ("服务中的项目里，委托方式是全委的有几个？", "数量", "P", "((P.服务状态=='服务中')&(P.委托方式=='全委')).sum()", "value", {}),
    ("青浦区所有项目（含已结束的）合同金额加起来是多少？", "金额", "P", "P.loc[P.市区=='青浦区','合同金额'].sum()", "value", {"accept": ["4613.56万"]}),
    ("3月税后工资最低的是谁？", "人员", "A", "M(A,'2026-03').loc[one(M(A,'2026-03').税后工资, top=False)].姓名", "value", {}),
    ("1月收款金额最少的是哪个项目？", "项目", "F,P", "NAME[M(F,'2026-01').loc[one(M(F,'2026-01').收款金额, top=False)].项目编号]", "value", {"all_of": ["区档案馆|XMSQ0115"]}),
    ("一季度青浦-人民医院一共开了多少票？", "金额", "F", "F.loc[(F.项目编号=='XMSQ0118')&F.年月.isin(" + Q1 + "),'开票金额'].sum()", "value", {}),
    ("2月全公司的加班小时一共是多少？", "数量", "A", "M(A,'2026-02').加班小时.sum()", "value", {}),
    ("保安领班3月的平均税后工资是多少？", "金额", "A,E", "M(A,'2026-03').loc[M(A,'2026-03').工号.isin(E.loc[E.岗位名称=='保安_领班','工号']),'税后工资'].mean()", "value", {}),
    ("冯志远和蒋文斌，1到4月谁的加班小时多？多多少？", "比较", "A", "(lambda s: (s.idxmax(), s.max()-s.min()))(A.loc[A.姓名.isin(['冯志远','蒋文斌'])].groupby('姓名').加班小时.sum())", "value",
     {"expected": "蒋文斌，多12小时", "all_of": ["蒋文斌", "12"]}),
    ("在职员工按管理处分，各有多少人？", "分组", "E", "E.loc[E.离职日期.isna()].groupby('组织名称').size().to_dict()", "group",
     {"all_of": ["徐汇管理处", "10", "青浦管理处", "23"]}),
    ("装在地下一层设备间的设备有几台？", "数量", "D", "(D.安装位置=='地下一层设备间').sum()", "value", {}),
    ("2019年出厂的设备是哪几台？", "列表", "D", "D.loc[D.出厂日期.str.startswith('2019'),'设备编号'].tolist()", "all", {}),
    ("规格型号是DS-9632N的设备一共几台？", "数量", "D", "(D.规格型号=='DS-9632N').sum()", "value", {}),
    ("消防设施维保合同是哪天签的？", "日期", "C", "C.loc[C.名称=='消防设施维保','日期'].iloc[0]", "value", {}),
    ("对讲机电池是哪个项目采购的？", "项目", "C,P", "NAME[C.loc[C.名称=='对讲机电池','项目编号'].iloc[0]]", "value", {"all_of": ["北斗园区|XMSQ0152"]}),
    ("徐汇-科创大厦2月那次月度品质检查，问题是哪天整改完的？", "日期", "K", "K.loc[(K.项目编号=='XMSQ0112')&(K.检查类型=='月度品质检查'),'整改完成日期'].iloc[0]", "value", {}),
    ("检查得分不低于90分的检查有几次？", "数量", "K", "(K.检查得分>=90).sum()", "value", {}),
    ("证书专业类别是消防的是哪几个人？", "列表", "Q", "Q.loc[Q.专业类别=='消防','姓名'].tolist()", "all", {}),
    ("北斗园区2025年续标的投标文件放在哪个路径？", "其他", "T", "T.loc[(T.项目编号=='XMSQ0152')&(T.年份=='2025'),'文档路径'].iloc[0]", "value", {}),
    ("2023年一共投了几次标？", "数量", "T", "(T.年份=='2023').sum()", "value", {}),
    ("预算编制加起来最多的是哪个项目？", "项目", "G,P", "NAME[one(G.groupby('项目编号').预算编制.sum())]", "value", {"all_of": ["区图书馆|XMSQ0102"]}),
    ("戚佳怡2月排了几个晚班？", "数量", "B", "cnt(M(B,'2026-02').loc[M(B,'2026-02').姓名=='戚佳怡'],'晚').iloc[0]", "value", {}),
    ("2月请过病假的有哪些人？", "列表", "A", "M(A,'2026-02').loc[cnt(M(A,'2026-02'),'病')>0,'姓名'].tolist()", "all", {}),
    ("3月考勤里记过“加”（休息日加班）的有几个人？", "数量", "A", "(cnt(M(A,'2026-03'),'加')>0).sum()", "value", {}),
    ("李晓峰负责的项目1到4月一共开了多少票？", "金额", "P,F", "F.loc[F.项目编号.isin(P.loc[P.项目负责人=='李晓峰','项目编号']),'开票金额'].sum()", "value", {}),
    ("徐汇片区的项目4月一共收了多少钱？", "金额", "ZP,F", "M(F,'2026-04').loc[M(F,'2026-04').项目编号.isin(ZP.loc[ZP.片区编号=='PQ02','项目编号']),'收款金额'].sum()", "value", {}),
    ("有高压电工作业证的几个人，现在分别在哪个项目？", "列表", "Q,E,P", "[NAME[p] for p in E.loc[E.工号.isin(Q.loc[Q.证书名称=='高压电工作业','工号']),'当前服务项目编号']]", "all",
     {"all_of": ["工业园区|XMSQ0105", "环境监测中心|XMSQ0110", "人民医院|XMSQ0118", "科创大厦|XMSQ0112"]}),
    ("4月有人请事假吗？都有谁？", "列表", "A", "M(A,'2026-04').loc[cnt(M(A,'2026-04'),'事')>0,'姓名'].tolist()", "all", {}),
    ("服务中的项目里，年化合同额不到100万的有几个？", "数量", "P", "((P.服务状态=='服务中')&(P.年化合同额<1000000)).sum()", "value", {}),
    ("刘德明3月的税前工资是多少？", "金额", "A", "None  # no 税前 field (税后工资 only)", NONE, {}),
    ("LED灯管现在库存还剩多少根？", "数量", "C", "None  # no 库存 field (采购数量 only)", NONE, {}),
    ("刘德民的手机号是多少？", "电话", "E", "None  # no 刘德民 (刘德明 exists)", NONE, {}),
    ("青浦-区文化馆的项目负责人是谁？", "人员", "P", "None  # no 青浦-区文化馆 (徐汇-文化馆, 青浦-区图书馆 exist)", NONE, {}),
    ("XMSQ0104是哪个项目？", "项目", "P", "None  # no XMSQ0104 (XMSQ0103, XMSQ0105 exist)", NONE, {}),
    ("这个月谁加班最多？", "人员", "A", "None  # 这个月 = 2026-05 (ZHICE_TODAY=2026-05-01); A.年月 only 2026-01..04", NONE, {}),
    ("朱家角片区有哪些项目？", "列表", "Z", "None  # only 青浦片区, 徐汇片区", NONE, {}),
    ("青浦-人民医院那次投标一共有几家单位参与竞标？", "数量", "T", "None  # no competitor / bidder-count field", NONE, {}),
]

B32 = [
    ("魏大勇的工号是多少？", "编号", "E", "JOB['魏大勇']", "value", {}),
    ("徐汇-环境监测中心的项目负责人是谁？", "人员", "P", "P.loc[P.项目名称=='徐汇-环境监测中心','项目负责人'].iloc[0]", "value", {}),
    ("青浦-体育馆的合同金额是多少？", "金额", "P", "P.loc[P.项目名称=='青浦-体育馆','合同金额'].iloc[0]", "value", {"accept": ["373.56万"]}),
    ("SB-0110-002现在是什么状态？", "状态", "D", "D.loc[D.设备编号=='SB-0110-002','完好状况'].iloc[0]", "value", {}),
    ("有物业管理师证的女员工是谁？", "人员", "Q,E", "E.loc[(E.性别=='女')&E.工号.isin(Q.loc[Q.证书名称=='物业管理师','工号']),'姓名'].tolist()", "all", {}),
    ("一季度全公司的餐费一共发了多少？", "金额", "A", "A.loc[A.年月.isin(" + Q1 + "),'餐费'].sum()", "value", {}),
    ("一季度哪个项目收款最多？", "项目", "F,P", "NAME[one(F.loc[F.年月.isin(" + Q1 + ")].groupby('项目编号').收款金额.sum())]", "value", {"all_of": ["人民医院|XMSQ0118"]}),
    ("3月比2月，全公司税后工资总额多了多少？", "金额", "A", "M(A,'2026-03').税后工资.sum()-M(A,'2026-02').税后工资.sum()", "value", {}),
    ("每个项目经理3月的税后工资分别是多少？", "分组", "A,E", "M(A,'2026-03').loc[M(A,'2026-03').工号.isin(E.loc[E.岗位名称=='项目经理','工号'])].set_index('姓名').税后工资.to_dict()", "group", {}),
    ("服务中的项目按计费方式分，合同金额各是多少？", "分组", "P", "P.loc[P.服务状态=='服务中'].groupby('计费方式').合同金额.sum().to_dict()", "group", {}),
    ("1到4月每个月全公司的开票总额分别是多少？", "分组", "F", "F.groupby('年月').开票金额.sum().to_dict()", "group", {}),
    ("保洁员3月平均加班几个小时？", "数量", "A,E", "M(A,'2026-03').loc[M(A,'2026-03').工号.isin(E.loc[E.岗位名称=='保洁员','工号']),'加班小时'].mean()", "value", {}),
    ("青浦-区图书馆和青浦-体育馆，哪个客户满意度高？高多少？", "比较", "P", "(lambda s: (s.idxmax(), s.max()-s.min()))(P.loc[P.项目编号.isin(['XMSQ0102','XMSQ0103'])].set_index('项目名称').客户满意度)", "value",
     {"expected": "青浦-区图书馆，高2.2分", "all_of": ["区图书馆", "2.2"]}),
    ("合同金额在200万到300万之间的项目有哪些？", "列表", "P", "P.loc[P.合同金额.between(2000000,3000000),'项目名称'].tolist()", "all",
     {"all_of": ["环境监测中心|XMSQ0110", "XMSQ0031|赵巷镇政府", "滨江公园|XMSQ0120", "文化馆|XMSQ0130"]}),
    ("哪些员工现在没有当前服务项目？", "列表", "E", "E.loc[E.当前服务项目编号.isna(),'姓名'].tolist()", "all", {}),
    ("保安_普保里有没有人拿了保安员证？是谁？", "列表", "E,Q", "E.loc[(E.岗位名称=='保安_普保')&E.工号.isin(Q.loc[Q.证书名称=='保安员（三级）','工号']),'姓名'].tolist()", "all", {}),
    ("吴建华1到4月税后工资一共多少？", "金额", "A", "A.loc[A.姓名=='吴建华','税后工资'].sum()", "value", {}),
    ("韩立新3月排了几个夜班？", "数量", "B", "cnt(M(B,'2026-03').loc[M(B,'2026-03').姓名=='韩立新'],'夜').iloc[0]", "value", {}),
    ("金建平4月排了几个24小时班？", "数量", "B", "cnt(M(B,'2026-04').loc[M(B,'2026-04').姓名=='金建平'],'全').iloc[0]", "value", {}),
    ("1月休了年假的有几个人？", "数量", "A", "(cnt(M(A,'2026-01'),'年')>0).sum()", "value", {}),
    ("赵永刚3月调休了几天？", "数量", "A", "cnt(M(A,'2026-03').loc[M(A,'2026-03').姓名=='赵永刚'],'调').iloc[0]", "value", {}),
    ("青浦-人民医院的设备里，启用最早的是哪一台？", "设备", "D", "D.loc[one(DT(D.loc[D.项目编号=='XMSQ0118','启用日期']), top=False)].设备编号", "value", {"accept": ["1号空调机组"]}),
    ("合同年限是1年的维保合同，金额一共多少？", "金额", "C", "C.loc[(C.记录类型=='维保合同')&(C.合同年限==1),'金额'].sum()", "value", {}),
    ("2月份采购了哪些耗材和固定资产？", "列表", "C", "C.loc[C.记录类型.isin(['耗材采购','固定资产'])&C.日期.str.startswith('2026-02'),'名称'].tolist()", "all",
     {"all_of": ["垃圾袋", "洗地机"]}),
    ("周建国做的检查里，得分最高的是哪个项目？", "项目", "K,P", "NAME[K.loc[one(K.loc[K.检查人工号==JOB['周建国'],'检查得分'])].项目编号]", "value", {"all_of": ["工业园区|XMSQ0105"]}),
    ("4月做的那几次检查，平均得分多少？", "数量", "K", "K.loc[K.检查日期.str.startswith('2026-04'),'检查得分'].mean()", "value", {}),
    ("王志强负责的项目里，哪个客户满意度最高？", "项目", "P", "P.loc[one(P.loc[P.项目负责人=='王志强','客户满意度'])].项目名称", "value", {"all_of": ["人民医院|XMSQ0118"]}),
    ("陈慧敏负责的项目一季度一共收了多少钱？", "金额", "P,F", "F.loc[F.项目编号.isin(P.loc[P.项目负责人=='陈慧敏','项目编号'])&F.年月.isin(" + Q1 + "),'收款金额'].sum()", "value", {}),
    ("李晓峰负责的项目现在一共有几个人在岗？", "数量", "P,G", "G.loc[G.项目编号.isin(P.loc[P.项目负责人=='李晓峰','项目编号']),'在岗人数'].sum()", "value", {}),
    ("青浦-人民医院的员工4月税后工资一共多少？", "金额", "A", "M(A,'2026-04').loc[M(A,'2026-04').项目编号=='XMSQ0118','税后工资'].sum()", "value", {}),
    ("徐汇片区负责人是什么职级？", "其他", "Z,E", "E.loc[E.工号==Z.loc[Z.片区名称=='徐汇片区','片区负责人工号'].iloc[0],'职级'].iloc[0]", "value", {}),
    ("3月开票超过15万的项目有几个？", "数量", "F", "(M(F,'2026-03').开票金额>150000).sum()", "value", {}),
    ("魏大勇每个月个税扣多少？", "金额", "A", "None  # no 个税 field (税后工资 only)", NONE, {}),
    ("青浦-体育馆有几栋楼？", "数量", "P", "None  # no 楼栋 field", NONE, {}),
    ("吴建军3月上了几天班？", "数量", "A", "None  # no 吴建军 (吴建华, 许建军 exist)", NONE, {}),
    ("徐汇-滨江大厦的合同金额是多少？", "金额", "P", "None  # no 徐汇-滨江大厦 (徐汇-滨江公园, 徐汇-科创大厦 exist)", NONE, {}),
    ("SB-0118-006是什么设备？", "设备", "D", "None  # XMSQ0118 has SB-0118-001..004", NONE, {}),
    ("去年1月各项目一共开了多少票？", "金额", "F", "None  # 去年1月 = 2025-01; F.年月 only 2026-01..04", NONE, {}),
    ("漕河泾片区的负责人是谁？", "人员", "Z", "None  # only 青浦片区, 徐汇片区", NONE, {}),
    ("刘德明3月12号是几点打卡上班的？", "其他", "A", "None  # day codes only, no clock times", NONE, {}),
]

B33 = [
    ("人民医院那个项目是谁在负责？", "人员", "P", "P.loc[P.项目编号=='XMSQ0118','项目负责人'].iloc[0]", "value", {}),
    ("谢梦瑶现在在哪个项目干活？", "项目", "E,P", "NAME[E.loc[E.姓名=='谢梦瑶','当前服务项目编号'].iloc[0]]", "value", {"all_of": ["赵巷镇政府|XMSQ0131"]}),
    ("区档案馆一年合同额多少？", "金额", "P", "P.loc[P.项目编号=='XMSQ0115','年化合同额'].iloc[0]", "value", {"accept": ["54万"]}),
    ("工业园区那台待修的设备原值多少钱？", "金额", "D", "D.loc[(D.项目编号=='XMSQ0105')&(D.完好状况=='待修'),'原值'].iloc[0]", "value", {"accept": ["54万"]}),
    ("咱们搞工程维修的一共几个人？", "数量", "E", "(E.岗位名称=='工程维修').sum()", "value", {}),
    ("公司里80后的女同事有几个？", "数量", "E", "((E.性别=='女')&E.出生日期.between('1980-01-01','1989-12-31')).sum()", "value", {}),
    ("今年新来的是谁？", "人员", "E", "E.loc[E.入职日期.str.startswith('2026'),'姓名'].tolist()", "all", {}),
    ("哪个月全公司加班时间最长？", "日期", "A", "one(A.groupby('年月').加班小时.sum())", "value", {}),
    ("区档案馆这四个月还有多少钱没收回来？", "金额", "F", "(lambda f: (f.开票金额-f.收款金额).sum())(F.loc[F.项目编号=='XMSQ0115'])", "value", {}),
    ("刘德明一季度到手一共多少钱？", "金额", "A", "A.loc[(A.姓名=='刘德明')&A.年月.isin(" + Q1 + "),'税后工资'].sum()", "value", {}),
    ("3月谁的餐费最多？", "人员", "A", "M(A,'2026-03').loc[one(M(A,'2026-03').餐费)].姓名", "value", {}),
    ("刘德明跟孙海涛，3月谁加班多？多几个钟头？", "比较", "A", "(lambda s: (s.idxmax(), s.max()-s.min()))(M(A,'2026-03').loc[M(A,'2026-03').姓名.isin(['刘德明','孙海涛'])].set_index('姓名').加班小时)", "value",
     {"expected": "刘德明，多8小时", "all_of": ["刘德明", "8"]}),
    ("体育馆那边的保洁是谁？", "人员", "E", "E.loc[(E.岗位名称=='保洁员')&(E.当前服务项目编号=='XMSQ0103'),'姓名'].tolist()", "all", {}),
    ("监测中心那边现在有几个人？", "数量", "E", "(E.当前服务项目编号=='XMSQ0110').sum()", "value", {}),
    ("华国栋管的设备里有几台是空调？", "数量", "D", "((D.设备责任人工号==JOB['华国栋'])&(D.设备类型=='空调')).sum()", "value", {}),
    ("医院那边买的大号垃圾袋多少钱一个？", "金额", "C", "C.loc[C.名称=='垃圾袋（大号）','单价'].iloc[0]", "value", {"accept": ["1.2元"]}),
    ("哪家供应商跟我们签的维保合同最多？", "单位", "C", "one(C.loc[C.记录类型=='维保合同'].groupby('供应商名称').size())", "value", {}),
    ("陶明亮4月上了几个白班？", "数量", "B", "cnt(M(B,'2026-04').loc[M(B,'2026-04').姓名=='陶明亮'],'白').iloc[0]", "value", {}),
    ("何宇航2月休了几天？", "数量", "A", "cnt(M(A,'2026-02').loc[M(A,'2026-02').姓名=='何宇航'],'休').iloc[0]", "value", {}),
    ("杨振华2月是不是旷过工？旷了几天？", "数量", "A", "cnt(M(A,'2026-02').loc[M(A,'2026-02').姓名=='杨振华'],'旷').iloc[0]", "value", {}),
    ("钱国庆今年以来一共排了多少个早班？", "数量", "B", "cnt(B.loc[B.姓名=='钱国庆'],'早').sum()", "value", {}),
    ("姜雨婷哪个月早班排得最多？", "日期", "B", "B.loc[one(cnt(B.loc[B.姓名=='姜雨婷'],'早'))].年月", "value", {}),
    ("赵巷镇政府那边哪些岗位人没配齐？", "列表", "G", "G.loc[(G.项目编号=='XMSQ0131')&(G.在岗人数<G.项目编制),'岗位'].tolist()", "all",
     {"all_of": ["保安_普保|普保", "保洁员|保洁"]}),
    ("徐汇区的项目今年一共做了几次检查？", "数量", "K,P", "(K.项目编号.isin(P.loc[P.市区=='徐汇区','项目编号'])&K.检查日期.str.startswith('2026')).sum()", "value", {}),
    ("李晓峰那两个项目，哪个毛利率高？", "项目", "P", "P.loc[one(P.loc[P.项目负责人=='李晓峰','实际毛利率'])].项目名称", "value", {"all_of": ["科创大厦|XMSQ0112"]}),
    ("赵巷镇政府续签之前那期合同是多少钱？", "金额", "P", "P.loc[P.项目编号==P.loc[P.项目编号=='XMSQ0131','续签前项目编号'].iloc[0],'合同金额'].iloc[0]", "value", {"accept": ["258万"]}),
    ("老城厢停车场那个标是哪年投的？", "日期", "T", "T.loc[T.项目编号=='XMSQ0099','年份'].iloc[0]", "value", {"accept": ["2023年"]}),
    ("北斗园区前后两期合同加起来多少钱？", "金额", "P", "P.loc[P.项目名称=='青浦-北斗园区','合同金额'].sum()", "value", {"accept": ["972万"]}),
    ("去年中标的标里，哪个金额最小？", "项目", "T,P", "NAME[T.loc[one(T.loc[(T.年份=='2025')&(T.中标结果=='中标'),'投标金额'], top=False)].项目编号]", "value", {"all_of": ["赵巷镇政府|XMSQ0131"]}),
    ("保安里谁入职最早？", "人员", "E", "E.loc[one(DT(E.loc[" + BAOAN + ",'入职日期']), top=False)].姓名", "value", {}),
    ("90后的项目经理是谁？", "人员", "E", "E.loc[(E.岗位名称=='项目经理')&E.出生日期.between('1990-01-01','1999-12-31'),'姓名'].tolist()", "all", {}),
    ("3月到手工资过6000的有几个人？", "数量", "A", "(M(A,'2026-03').税后工资>6000).sum()", "value", {}),
    ("刘德明的工龄工资是多少？", "金额", "A", "None  # no 工龄工资 field", NONE, {}),
    ("姜雨晴4月排了几个早班？", "数量", "B", "None  # no 姜雨晴 (姜雨婷 exists)", NONE, {}),
    ("青浦-中心医院的甲方是谁？", "单位", "P", "None  # no 青浦-中心医院 (青浦-人民医院 exists)", NONE, {}),
    ("KWL2404099是谁？", "人员", "E", "None  # no such 工号 (KWL2404026 exists)", NONE, {}),
    ("下个月谁排的夜班最多？", "人员", "B", "None  # 下个月 = 2026-06 (ZHICE_TODAY=2026-05-01); B.年月 only 2026-01..04", NONE, {}),
    ("严玉梅3月拿了多少工资？", "金额", "A", "None  # 严玉梅 left 2026-02-28: no 2026-03 row in 考勤", NONE, {}),
    ("工业园区那台待修的空调修好要花多少钱？", "金额", "D", "None  # no 维修费用 field (原值 only)", NONE, {}),
    ("临港片区归谁管？", "人员", "Z", "None  # only 青浦片区, 徐汇片区", NONE, {}),
]


def _months(batch: list) -> list:
    """Month golds also accept the bare M月 form; month keys of a group answer accept either form.
    A comparison (kind 比较) carries a hand-written gold: it is checked against the computed
    (winner, difference) pair, so the written gold cannot drift from the data."""
    out = []
    for q, kind, frames, expr, how, extra in batch:
        extra = dict(extra)
        if kind == "比较":
            who, diff = eval(expr, base.NS)  # noqa: S307 - our own expressions
            assert who.endswith(extra["all_of"][0]) and base.fmt(diff) == extra["all_of"][1], (q, who, diff)
            assert extra["all_of"][0] in extra["expected"] and base.fmt(diff) in extra["expected"], q
        if how == "value" and kind == "日期" and "年月" in expr:
            v = base.fmt(eval(expr, base.NS))  # noqa: S307 - our own expressions
            extra.setdefault("accept", []).append(MON[v])
        if how == "group" and "年月" in expr:
            v = eval(expr, base.NS)  # noqa: S307
            extra["all_of"] = [base.fmt(x) for x in v.values()] + [month_item(k) for k in v]
        out.append((q, kind, frames, expr, how, extra))
    return out


if __name__ == "__main__":
    base.write_batches([(31, _months(B31)), (32, _months(B32)), (33, _months(B33))], refusals=8)
