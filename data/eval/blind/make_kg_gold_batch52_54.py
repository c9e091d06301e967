"""Fresh blind KG batches 52-54 (seventeenth fresh round, KG only): computes every gold answer with
pandas straight from the sample spreadsheets (data/samples/business/*.xlsx) and writes
kg_batch_{52,53,54}.jsonl next to this file. Written by a helper who did not read the engine, its rules,
the golden sets, the tests, the git history or the old batch files (beyond one record of kg_batch_51.jsonl
for the format, and the questions quoted in README.md and held in the gold scripts this one imports, which
were avoided), and who did not run the engine, the CLI or the scorer.

Same conventions as make_kg_gold_batch49_51.py (frames P E S Z ZP F A B T G D C K Q W, `cnt`, `pid`,
`NAME`, `WHO` 工号 -> 姓名, `JOB` 姓名 -> 工号, `M(df, ym)` rows of one 年月, `one(series)` the single
index of a maximum/minimum, asserting there is no tie, `DT` = pd.to_datetime, `single(seq)` the only
element of a list, `only(series)` the only distinct value of a column). The pandas expression is kept in
each record's "source"; expected null = not in the data. Bare months mean 2026. Relative dates are read
against the KG run's ZHICE_TODAY=2026-05-01 (今年 = 2026, 上个月 = 2026-04, 去年 = 2025). Month golds are
written YYYY-MM and also accept "M月" (make_kg_gold_batch40_42._prep); two-entity comparisons (kind 比较)
carry a hand-written gold "winner, difference" that `_prep` checks against the computed pair; writer-side
keys "unit", "pct", "pct1" as in make_kg_gold_batch40_42.py (applied and dropped before writing).

Batch 52 is worded like frontline supervisors (班长 / 主管: 排班, 考勤, 设备, 检查, short project names),
batch 53 like HR / finance clerks (人员信息, 工资, 餐费, 开票收款, 采购), batch 54 like a general manager
(groups, top or bottom, ratios, comparisons with the difference, combined conditions, chains).

    .venv/bin/python data/eval/blind/make_kg_gold_batch52_54.py
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kg_gold as base  # noqa: E402
import make_kg_gold_batch34_36 as p34  # noqa: E402  (_check_groups)
import make_kg_gold_batch40_42 as p40  # noqa: E402  (frames and helpers in base.NS, LEAVE, _prep)
import make_kg_gold_batch49_51 as p49  # noqa: E402  (the previous round: CMP, POST, ORG, BAOAN, ZAIZHI, job_ids)

NONE = "none"  # not answerable from the spreadsheets: expected null
BAOAN = p49.BAOAN  # 保安 = 保安_领班 + 保安_普保
ZAIZHI = p49.ZAIZHI  # 在职 = 离职日期 empty
job_ids = p49.job_ids
CMP = p49.CMP  # (winner, difference) of a two-row series
POST = p49.POST  # 工号 -> 岗位名称
ORG = p49.ORG  # 工号 -> 组织名称
LEAVE = p40.LEAVE  # ['事','病','年','调']
OWNER = p49.OWNER  # 项目编号 -> 项目负责人
A1, A2, A3, A4 = ("M(A,'2026-0%d')" % i for i in range(1, 5))
B4 = "M(B,'2026-04')"
F4 = "M(F,'2026-04')"
SVC = "(P.服务状态=='服务中')"

B52 = [
    ("4月30号图书馆那边排中班的是哪几个？", "列表", "B", B4 + ".loc[(" + B4 + ".项目编号=='XMSQ0102')&(" + B4 + "['30日']=='中'),'姓名'].tolist()", "all", {}),
    ("4月2号科创大厦谁上的全天班？", "人员", "B", "single(" + B4 + ".loc[(" + B4 + ".项目编号=='XMSQ0112')&(" + B4 + "['2日']=='全'),'姓名'])", "value", {}),
    ("工业园区那台2号客梯装在哪个位置？", "地址", "D", "single(D.loc[(D.项目编号=='XMSQ0105')&(D.设备名称=='2号客梯'),'安装位置'])  # SB-0105-006", "value", {}),
    ("医院那台监控主机是哪年启用的？", "日期", "D", "single(D.loc[(D.项目编号=='XMSQ0118')&(D.设备类型=='安防'),'启用日期'])[:4]  # SB-0118-004 2015-03-01", "value", {"accept": ["2015-03-01"]}),
    ("3月医院那边谁加班时间最长？", "人员", "A", "one(" + A3 + ".loc[" + A3 + ".项目编号=='XMSQ0118'].set_index('姓名').加班小时)  # 韩立新 16, 孔美玲 8", "value", {}),
    ("曹秀珍4月请的是啥假？", "类别", "A", "single([c for c in " + LEAVE + " if cnt(" + A4 + ".loc[" + A4 + ".姓名=='曹秀珍'],c).iloc[0]>0])+'假'", "value", {}),
    ("吕秀英这四个月一共请了几天病假？", "数量", "A", "cnt(A.loc[A.姓名=='吕秀英'],'病').sum()  # 2月, 4月", "value", {"accept": ["2天"]}),
    ("魏大勇管的设备里哪台出厂最早？", "其他", "D", "D.loc[one(DT(D.loc[D.设备责任人工号==JOB['魏大勇']].set_index('设备编号').出厂日期), top=False)==D.设备编号,'设备名称'].iloc[0]  # SB-0118-003 2012-01-01", "value",
     {"all_of": ["空调|SB-0118-003"]}),
    ("周建国查过的那些次里，哪次分数最高？", "项目", "K,P", "(lambda r: (NAME[r.项目编号], r.检查类型, r.检查得分))(K.loc[one(K.loc[K.检查人工号==JOB['周建国'],'检查得分'])])  # 95; next 92", "value",
     {"expected": "青浦-工业园区 消防安全检查（2月14日，95分）", "all_of": ["工业园区|XMSQ0105", "95"]}),
    ("4月排班里一个中班都没排的有几个人？", "数量", "B", "(cnt(" + B4 + ",'中')==0).sum()", "value", {}),
    ("朱俊杰4月排了几天休？", "数量", "B", "cnt(" + B4 + ".loc[" + B4 + ".姓名=='朱俊杰'],'休').iloc[0]", "value", {}),
    ("3月科创大厦考勤上有哪几个人？", "列表", "A", A3 + ".loc[" + A3 + ".项目编号=='XMSQ0112','姓名'].tolist()", "all", {}),
    ("体育馆那俩人4月上班天数加起来多少？", "数量", "A", A4 + ".loc[" + A4 + ".项目编号=='XMSQ0103','上班天数'].sum()  # 冯志远 22 + 施桂兰 22", "value", {}),
    ("赵巷镇那边4月排班上有哪几个人？", "列表", "B", B4 + ".loc[" + B4 + ".项目编号=='XMSQ0131','姓名'].tolist()", "all", {}),
    ("监测中心秦家豪4月一共几个夜班？", "数量", "B", "cnt(" + B4 + ".loc[" + B4 + ".姓名=='秦家豪'],'夜').iloc[0]", "value", {}),
    ("监测中心那边哪台设备原值最高？", "其他", "D", "D.loc[one(D.loc[D.项目编号=='XMSQ0110','原值'])].设备名称  # SB-0110-003 540000; 电力 420000", "value",
     {"all_of": ["空调|SB-0110-003"]}),
    ("北斗园区的保安这四个月加班时长合计多少小时？", "数量", "A,E", "A.loc[(A.项目编号=='XMSQ0152')&A.工号.isin(E.loc[" + BAOAN + ",'工号']),'加班小时'].sum()  # 朱俊杰 1-4月 32 + 郑晓东 3-4月 28 (his 1-2月 rows are under XMSQ0131)", "value", {}),
    ("青浦管理处的保洁阿姨里，3月谁上班天数最少？", "人员", "A,E", "one(" + A3 + ".loc[" + A3 + ".工号.isin(E.loc[(E.岗位名称=='保洁员')&(E.组织名称=='申勤物业青浦管理处'),'工号'])].set_index('姓名').上班天数, top=False)  # 吕秀英 21, the others 22", "value", {}),
    ("医院那边这四个月一共排了多少个夜班？", "数量", "B", "cnt(B.loc[B.项目编号=='XMSQ0118'],'夜').sum()", "value", {}),
    ("1月份夜班比早班多的有几个人？", "数量", "B", "(cnt(" + "M(B,'2026-01')" + ",'夜')>cnt(" + "M(B,'2026-01')" + ",'早')).sum()", "value", {}),
    ("华国栋管的那些设备里，完好的原值加起来多少？", "金额", "D", "D.loc[(D.设备责任人工号==JOB['华国栋'])&(D.完好状况=='完好'),'原值'].sum()  # 待修 空调 and 报废 水泵 left out", "value", {"accept": ["181万"]}),
    ("工业园区考勤上的人这四个月谁请假最多（事病年调都算）？", "人员", "A", "one((lambda d: d.assign(n=sum(cnt(d,c) for c in " + LEAVE + ")))(A.loc[A.项目编号=='XMSQ0105']).groupby('姓名').n.sum())  # 王志强 4, 华国栋 3", "value", {}),
    ("科创大厦2月和4月那两次检查，哪次分高？高几分？", "比较", "K", CMP + "(K.loc[K.项目编号=='XMSQ0112'].set_index(K.loc[K.项目编号=='XMSQ0112'].检查日期.str[:7]).检查得分)  # 2月 84 月度品质检查, 4月 81 回访", "value",
     {"expected": "2月那次高，高3分", "all_of": ["2月|02-12", "3"]}),
    ("医院那边韩立新和赵永刚，4月谁的中班多？多几个？", "比较", "B", CMP + "(" + B4 + ".loc[" + B4 + ".姓名.isin(['韩立新','赵永刚'])].set_index('姓名').pipe(lambda d: cnt(d,'中')))  # 8 vs 6", "value",
     {"expected": "韩立新，多2个", "all_of": ["韩立新", "2"]}),
    ("客服那仨4月谁早班排得最多？", "人员", "B,E", "one(" + B4 + ".loc[" + B4 + ".工号.isin(" + job_ids('客服') + ")].set_index('姓名').pipe(lambda d: cnt(d,'早')))  # 姜雨婷 17, 戚佳怡 13, 谢梦瑶 9", "value", {}),
    ("有高压电工证的几个人，4月加班小时一共多少？", "数量", "Q,A", A4 + ".loc[" + A4 + ".工号.isin(Q.loc[Q.证书名称=='高压电工作业','工号']),'加班小时'].sum()  # 华国栋 8, 金建平 0, 魏大勇 8, 陶明亮 8", "value", {}),
    ("装在北门岗亭的那些设备，分别归谁管？", "列表", "D,E", "sorted({WHO[w] for w in D.loc[D.安装位置=='北门岗亭','设备责任人工号']})", "all", {}),
    ("1月考勤里记过'加'的人当中，保安有几个？", "数量", "A,E", "(" + A1 + ".工号.isin(E.loc[" + BAOAN + ",'工号'])&(cnt(" + A1 + ",'加')>0)).sum()  # 吴建华 钱国庆 冯志远 蒋文斌 朱俊杰 秦家豪", "value", {}),
    ("4月保安里夜班排得最少的是哪几个？", "列表", "B,E", "(lambda s: s[s==s.min()].index.tolist())(" + B4 + ".loc[" + B4 + ".工号.isin(E.loc[" + BAOAN + ",'工号'])].set_index('姓名').pipe(lambda d: cnt(d,'夜')))  # 6 each; the others 7 or 8", "all", {}),
    ("4月工业园区孙海涛和蒋文斌有几天是一起休的？", "数量", "B", "(lambda d: ((d.loc['孙海涛',DAYS]=='休')&(d.loc['蒋文斌',DAYS]=='休')).sum())(" + B4 + ".set_index('姓名'))  # the two 保安 of XMSQ0105", "value", {}),
    ("上个月工程维修那几个师傅里，谁的白班最少？", "人员", "B,E", "one(" + B4 + ".loc[" + B4 + ".工号.isin(" + job_ids('工程维修') + ")].set_index('姓名').pipe(lambda d: cnt(d,'白')), top=False)  # 上个月 = 2026-04; 魏大勇 13, 金建平 14", "value", {}),
    ("图书馆那边3月考勤上的人，餐费加起来多少？", "金额", "A", A3 + ".loc[" + A3 + ".项目编号=='XMSQ0102','餐费'].sum()", "value", {}),
    ("去年12月钱国庆排了几个夜班？", "数量", "B", "None  # 去年12月 = 2025-12; 排班 only 2026-01..04", NONE, {}),
    ("那台新买的洗地机现在放在哪个机房？", "地址", "C,D", "None  # 洗地机 is a 固定资产 row of 采购与维保 (no 安装位置); not in 设备信息", NONE, {}),
    ("孙海滔4月加了几个小时班？", "数量", "A", "None  # no 孙海滔 (孙海涛 exists)", NONE, {}),
    ("体育馆的消防水泵是哪家厂的？", "其他", "D", "None  # XMSQ0103 has no devices in 设备信息", NONE, {}),
    ("2月份谁早退的次数最多？", "人员", "A", "None  # no 早退 code or field", NONE, {}),
    ("北斗园区的保安交接班记录本上4月写了几次异常？", "数量", "-", "None  # no shift-handover log", NONE, {}),
    ("医院那边电梯每个月的电费是多少？", "金额", "D,C", "None  # no utility costs", NONE, {}),
    ("档案馆的保安4月上了几个夜班？", "数量", "B,G", "None  # wrong premise: XMSQ0115's 保安_普保 post has 在岗 0; no 保安 in its 排班 (戚佳怡 客服, 张凤英 保洁员)", NONE, {}),
]

B53 = [
    ("姜雨婷是哪年哪月入职的？", "日期", "E", "E.loc[E.姓名=='姜雨婷','入职日期'].iloc[0][:7]  # 2022-09-13", "value", {"accept": ["2022年9月", "2022-09-13"]}),
    ("在职的共青团员女员工有哪几位？", "列表", "E", "E.loc[" + ZAIZHI + "&(E.政治面貌=='共青团员')&(E.性别=='女'),'姓名'].tolist()  # 严玉梅 (left) not counted", "all", {}),
    ("秦家豪1月份加班超时费发了多少？", "金额", "A", A1 + ".loc[" + A1 + ".姓名=='秦家豪','加班超时费'].iloc[0]", "value", {}),
    ("何宇航2月的税后工资是多少？", "金额", "A", A2 + ".loc[" + A2 + ".姓名=='何宇航','税后工资'].iloc[0]", "value", {}),
    ("工号KWL2503030是哪位员工？", "人员", "E", "WHO['KWL2503030']", "value", {}),
    ("青浦管理处的女员工里，80后有哪几位？", "列表", "E", "E.loc[(E.组织名称=='申勤物业青浦管理处')&(E.性别=='女')&E.出生日期.between('1980-01-01','1989-12-31'),'姓名'].tolist()", "all", {}),
    ("2月份开票没有全额收回的项目有哪些？", "列表", "F,P", "[NAME[p] for p in " + A2.replace("A", "F") + ".loc[" + A2.replace("A", "F") + ".收款金额<" + A2.replace("A", "F") + ".开票金额,'项目编号']]", "all",
     {"all_of": ["体育馆|XMSQ0103", "北斗园区|XMSQ0152", "赵巷镇|XMSQ0131", "科创大厦|XMSQ0112"]}),
    ("拖把是哪天买的？", "日期", "C", "single(C.loc[C.名称=='拖把','日期'])", "value", {"accept": ["1月10日", "01-10"]}),
    ("吴建华2月的国定加班费和值班费加起来多少？", "金额", "A", "(lambda r: r.国定加班费+r.值班费)(" + A2 + ".loc[" + A2 + ".姓名=='吴建华'].iloc[0])  # 1710 + 200", "value", {}),
    ("这个月过生日的员工有哪几位？", "列表", "E", "E.loc[E.出生日期.str[5:7]=='05','姓名'].tolist()  # 这个月 = 2026-05 (ZHICE_TODAY)", "all", {}),
    ("固定资产那两笔采购合计多少钱？", "金额", "C", "C.loc[C.记录类型=='固定资产','金额'].sum()  # 洗地机 26800 + 监控硬盘录像机 10800", "value", {}),
    ("张丽娟一季度税后工资一共多少？", "金额", "A", "A.loc[(A.姓名=='张丽娟')&A.年月.isin(" + p40.Q1 + "),'税后工资'].sum()", "value", {}),
    ("4月份值班费发给了几个人？", "数量", "A", "(" + A4 + ".值班费>0).sum()  # 4 保安_领班 + 4 工程维修", "value", {"accept": ["8人", "8个"]}),
    ("入职日期在1月份的员工有哪些（哪年都算）？", "列表", "E", "E.loc[E.入职日期.str[5:7]=='01','姓名'].tolist()", "all", {}),
    ("人员信息表里员工层级空着没填的有几个人？", "数量", "E", "E.员工层级.isna().sum()", "value", {}),
    ("采购专员喻志华是哪个管理处的、什么政治面貌？", "其他", "E", "E.loc[E.姓名=='喻志华',['组织名称','政治面貌']].iloc[0].tolist()", "all",
     {"expected": "申勤物业青浦管理处，共青团员", "all_of": ["青浦管理处|青浦", "共青团员"]}),
    ("现在在职的员工里，入职满5年的有哪几位？", "列表", "E", "E.loc[" + ZAIZHI + "&(E.入职日期<='2021-05-01'),'姓名'].tolist()  # ZHICE_TODAY 2026-05-01; 吕秀英 2021-05-10 just short", "all", {}),
    ("4月税后工资不到4000元的员工都有谁？", "列表", "A", A4 + ".loc[" + A4 + ".税后工资<4000,'姓名'].tolist()  # the five 保洁员", "all", {}),
    ("已经离职的那位员工，最后一个月的税后工资是多少？", "金额", "E,A", "A.loc[A.工号==single(E.loc[E.离职日期.notna(),'工号'])].sort_values('年月').税后工资.iloc[-1]  # 严玉梅 2026-02", "value", {}),
    ("2025年入职的员工，4月的餐费一共多少？", "金额", "E,A", A4 + ".loc[" + A4 + ".工号.isin(E.loc[E.入职日期.str.startswith('2025'),'工号']),'餐费'].sum()  # 秦家豪 315 许建军 300 陶明亮 330 谢梦瑶 330", "value", {}),
    ("4月份男员工和女员工的平均税后工资相差多少？", "比较", "A,E", CMP + "(" + A4 + ".groupby(" + A4 + ".工号.map(dict(zip(E.工号,E.性别)))).税后工资.mean())  # 男 5852.73 (21 rows), 女 5332.17 (10 rows)", "value",
     {"expected": "男员工平均高，高520.56元", "all_of": ["男", "520.56"]}),
    ("政治面貌是群众的员工里，4月税后工资最高的是谁？", "人员", "A,E", "WHO[" + A4 + ".loc[one(" + A4 + ".loc[" + A4 + ".工号.isin(E.loc[E.政治面貌=='群众','工号']),'税后工资'])].工号]  # 张丽娟 10650.59, 周建国 10633.46 (王志强 党员)", "value", {}),
    ("全公司1月和4月的税后工资合计，哪个月多？多多少？", "比较", "A", CMP + "(A.loc[A.年月.isin(['2026-01','2026-04'])].groupby('年月').税后工资.sum())  # 178847.70 vs 176228.99", "value",
     {"expected": "1月多，多2618.71元", "all_of": ["1月|2026-01", "2618.71"]}),
    ("4月所有项目开票减去收款，还差多少没收回来？", "金额", "F", "(" + F4 + ".开票金额-" + F4 + ".收款金额).sum()", "value", {}),
    ("陈慧敏作为投标经办人，中标的那几次投标金额合计多少？", "金额", "T,E", "T.loc[(T.投标经办人工号==JOB['陈慧敏'])&(T.中标结果=='中标'),'投标金额'].sum()  # XMSQ0152, XMSQ0131, XMSQ0052; XMSQ0099 未中标", "value", {"accept": ["1156万"]}),
    ("1到4月值班费按管理处分别合计多少？", "分组", "A,E", "A.groupby(A.工号.map(" + ORG + ")).值班费.sum().to_dict()", "group",
     {"all_of": ["2400", "4000", "徐汇管理处|徐汇", "青浦管理处|青浦"]}),
    ("上个月普保的人均到手工资是多少？", "金额", "A,E", A4 + ".loc[" + A4 + ".工号.isin(" + job_ids('保安_普保') + "),'税后工资'].mean()  # 10 rows", "value", {}),
    ("孙海涛1到4月平均每月税后多少？", "金额", "A", "A.loc[A.姓名=='孙海涛','税后工资'].mean()", "value", {}),
    ("共青团员的员工1到4月加班超时费合计多少？", "金额", "E,A", "A.loc[A.工号.isin(E.loc[E.政治面貌=='共青团员','工号']),'加班超时费'].sum()  # 严玉梅 (left, 1-2月) included", "value", {}),
    ("1到4月累计收款最少的是哪个项目（夏阳那个新项目不算）？", "项目", "F,P", "NAME[one(F.loc[F.项目编号!='XMSQ0125'].groupby('项目编号').收款金额.sum(), top=False)]  # 166933.16", "value", {"all_of": ["区档案馆|XMSQ0115"]}),
    ("餐费是按出勤一天多少钱算的？", "金额", "A", "only(A.餐费/A.上班天数)  # every 考勤 row: 餐费 = 15 × 上班天数", "value", {"accept": ["15元"]}),
    ("徐汇管理处4月的税后工资总额是多少？", "金额", "A,E", A4 + ".loc[" + A4 + ".工号.map(" + ORG + ")=='申勤物业徐汇管理处','税后工资'].sum()", "value", {}),
    ("吕秀英的健康证哪天到期？", "日期", "Q", "None  # 人员证书 holds no 健康证 and no expiry dates", NONE, {}),
    ("4月全员工资里工龄工资合计多少？", "金额", "A", "None  # no 工龄工资 item", NONE, {}),
    ("何宇航是通过哪家劳务派遣公司进来的？", "其他", "E", "None  # no agency field", NONE, {}),
    ("严玉梅是因为什么原因离职的？", "其他", "E", "None  # 离职日期 only; 备注 empty", NONE, {}),
    ("李晓锋4月的税后工资是多少？", "金额", "A", "None  # no 李晓锋 (李晓峰 exists)", NONE, {}),
    ("去年同期（2025年4月）全公司税后工资总额是多少？", "金额", "A", "None  # 考勤与人员财务 only 2026-01..04", NONE, {}),
    ("喻志华经办的那笔办公用品采购花了多少钱？", "金额", "C", "None  # wrong premise: no 办公用品 in 采购与维保 (耗材, 维保合同, 固定资产 only)", NONE, {}),
    ("邹红梅4月拿了多少餐费？", "金额", "A", "None  # 邹红梅 (财务专员) has no 考勤与人员财务 row", NONE, {}),
]

B54 = [
    ("服务中的项目平均下来，一个项目一年合同额多少？", "金额", "P", "P.loc[" + SVC + ",'年化合同额'].mean()  # 12 projects", "value", {"accept": ["147.5万"]}),
    ("服务中项目里合同金额在500万以上的有哪几个？", "列表", "P", "P.loc[" + SVC + "&(P.合同金额>=5000000),'项目名称'].tolist()", "all",
     {"all_of": ["文体中心|XMSQ0100", "北斗园区|XMSQ0152", "工业园区|XMSQ0105", "科创大厦|XMSQ0112", "人民医院|XMSQ0118"]}),
    ("设备的完好率是多少？", "比例", "D", "(D.完好状况=='完好').mean()  # 18 / 21 (待修 2, 报废 1)", "value", {"pct": True}),
    ("岗位编制表里，在岗人数占项目编制的比例是多少？", "比例", "G", "G.在岗人数.sum()/G.项目编制.sum()", "value", {"pct": True}),
    ("青浦片区负责人自己4月税后工资多少？", "金额", "Z,A", A4 + ".loc[" + A4 + ".工号==Z.loc[Z.片区名称=='青浦片区','片区负责人工号'].iloc[0],'税后工资'].iloc[0]  # 周建国", "value", {}),
    ("客户投诉3次的服务中项目里，哪个满意度更低？", "项目", "P", "P.loc[one(P.loc[(P.客户投诉==3)&(" + SVC + "),'客户满意度'], top=False)].项目名称  # 区图书馆 87.7, 科创大厦 94.0", "value", {"all_of": ["区图书馆|XMSQ0102"]}),
    ("项目经理平均每人负责几个服务中的项目？", "数量", "P,E", "(" + SVC + ").sum()/(E.岗位名称=='项目经理').sum()  # 12 / 5", "value", {"accept": ["2.4个"]}),
    ("4月考勤上人数最多的是哪个项目？", "项目", "A,P", "NAME[one(" + A4 + ".groupby('项目编号').size())]", "value", {"all_of": ["区图书馆|XMSQ0102"]}),
    ("服务中项目里，年化合同额乘毛利率算下来毛利最多的是哪个？", "项目", "P", "NAME[one(P.loc[" + SVC + "].set_index('项目编号').pipe(lambda d: d.年化合同额*d.实际毛利率))]  # 人民医院 633600; 工业园区 511700", "value",
     {"all_of": ["人民医院|XMSQ0118"]}),
    ("谁手上服务中项目的年化合同额加起来最少？", "人员", "P", "one(P.loc[" + SVC + "].groupby('项目负责人').年化合同额.sum(), top=False)  # 张丽娟 1820000 (文化馆 未开始), 陈慧敏 2600000", "value", {}),
    ("1到4月开票合计排前三的是哪几个项目？", "列表", "F,P", "[NAME[p] for p in F.groupby('项目编号').开票金额.sum().nlargest(3).index]  # fourth 北斗园区", "all",
     {"all_of": ["人民医院|XMSQ0118", "文体中心|XMSQ0100", "工业园区|XMSQ0105"]}),
    ("服务中的项目按汇总业态分，哪类平均毛利率最高？", "类别", "P", "one(P.loc[" + SVC + "].groupby('汇总业态').实际毛利率.mean())", "value", {}),
    ("4月全公司税后工资总额占当月开票总额的百分之几？", "比例", "A,F", A4 + ".税后工资.sum()/" + F4 + ".开票金额.sum()", "value", {"pct": True}),
    ("人民医院4月考勤上那几个人的税后工资，占医院当月开票的比例是多少？", "比例", "A,F", A4 + ".loc[" + A4 + ".项目编号=='XMSQ0118','税后工资'].sum()/" + F4 + ".loc[" + F4 + ".项目编号=='XMSQ0118','开票金额'].iloc[0]", "value", {"pct": True}),
    ("在岗人数合计最多的是哪个项目？", "项目", "G,P", "NAME[one(G.groupby('项目编号').在岗人数.sum())]", "value", {}),
    ("设备原值合计最高的那个项目，4月开了多少票？", "金额", "D,F", F4 + ".loc[" + F4 + ".项目编号==one(D.groupby('项目编号').原值.sum()),'开票金额'].iloc[0]  # XMSQ0105 2412000", "value", {}),
    ("服务中的项目里，合同离到期不到一年的有哪些？", "列表", "P", "P.loc[" + SVC + "&(P.结束日期<='2027-05-01'),'项目名称'].tolist()  # ZHICE_TODAY 2026-05-01", "all",
     {"all_of": ["文体中心|XMSQ0100", "区图书馆|XMSQ0102", "体育馆|XMSQ0103", "区档案馆|XMSQ0115", "工业园区|XMSQ0105"]}),
    ("续签以后客户满意度反而掉了的是哪个项目？掉了多少分？", "项目", "P", "single([(NAME[r.项目编号], round(P.loc[P.项目编号==r.续签前项目编号,'客户满意度'].iloc[0]-r.客户满意度, 2)) for r in P.loc[P.续签前项目编号.notna()].itertuples() if r.客户满意度 < P.loc[P.项目编号==r.续签前项目编号,'客户满意度'].iloc[0]])  # 北斗园区 95.6 -> 85.0; 赵巷镇 87.4 -> 93.6", "value",
     {"expected": "青浦-北斗园区，掉了10.6分", "all_of": ["北斗园区|XMSQ0152", "10.6"]}),
    ("一季度月均开票和4月开票比，哪个多？差多少？", "比较", "F", CMP + "(pd.Series({'一季度月均': F.loc[F.年月.isin(" + p40.Q1 + "),'开票金额'].sum()/3, '4月': " + F4 + ".开票金额.sum()}))", "value",
     {"expected": "4月多，比一季度月均多19859.75元", "all_of": ["4月", "19859.75"]}),
    ("哪个岗位这四个月加班超时费拿得最多？", "类别", "A,E", "one(A.groupby(A.工号.map(" + POST + ")).加班超时费.sum())", "value", {}),
    ("服务中项目的年化合同额里，包干制的占百分之几？", "比例", "P", "P.loc[" + SVC + "&(P.计费方式=='包干制'),'年化合同额'].sum()/P.loc[" + SVC + ",'年化合同额'].sum()", "value", {"pct": True}),
    ("服务中项目里，每平方米年化合同额最低的是哪个？", "项目", "P", "NAME[one(P.loc[" + SVC + "].set_index('项目编号').pipe(lambda d: d.年化合同额/d.合同面积), top=False)]  # 滨江公园 8.53", "value", {"all_of": ["滨江公园|XMSQ0120"]}),
    ("检查平均分低于85分的项目有哪些？", "列表", "K,P", "[NAME[p] for p, v in K.groupby('项目编号').检查得分.mean().items() if v < 85]  # 82, 82.5, 83, 83; 赵巷镇 86", "all",
     {"all_of": ["区图书馆|XMSQ0102", "科创大厦|XMSQ0112", "区档案馆|XMSQ0115", "北斗园区|XMSQ0152"]}),
    ("中标的投标里，新标和续标的平均投标金额差多少？", "比较", "T", CMP + "(T.loc[T.中标结果=='中标'].groupby('投标类型').投标金额.mean())  # 新标 6 中标 4651666.67, 续标 2 中标 3440000", "value",
     {"expected": "新标平均高，高1211666.67元（约121.17万）", "all_of": ["新标", "1211666.67|121.17万"]}),
    ("4月两个管理处的人均税后工资，哪边高？高多少？", "比较", "A,E", CMP + "(" + A4 + ".groupby(" + A4 + ".工号.map(" + ORG + ")).税后工资.mean())  # 徐汇 10 rows, 青浦 21 rows", "value",
     {"expected": "徐汇管理处高，高541.11元", "all_of": ["徐汇管理处|徐汇", "541.11"]}),
    ("服务中项目里，全委的和单委的平均客户满意度差多少？", "比较", "P", CMP + "(P.loc[" + SVC + "].groupby(P.委托方式.map(lambda x: '全委' if x=='全委' else '单委')).客户满意度.mean())  # 92.92 (6) vs 90.17 (单一单委 + 多项单委, 6)", "value",
     {"expected": "全委高，高2.75分", "all_of": ["全委", "2.75"]}),
    ("1到4月哪个项目的回款比例最低？", "项目", "F,P", "NAME[one(F.groupby('项目编号').pipe(lambda g: g.收款金额.sum()/g.开票金额.sum()), top=False)]  # 收款 / 开票", "value", {"all_of": ["科创大厦|XMSQ0112"]}),
    ("有待修或报废设备的项目，一季度收款合计多少？", "金额", "D,F", "F.loc[F.年月.isin(" + p40.Q1 + ")&F.项目编号.isin(D.loc[D.完好状况!='完好','项目编号']),'收款金额'].sum()  # XMSQ0105, XMSQ0110", "value", {}),
    ("王志强手上的那几个在服项目，上个月一共开票多少？", "金额", "P,F", F4 + ".loc[" + F4 + ".项目编号.isin(P.loc[(P.项目负责人=='王志强')&(" + SVC + "),'项目编号']),'开票金额'].sum()  # 上个月 = 2026-04; 工业园区, 人民医院, 夏阳", "value", {}),
    ("不算夏阳，4月开票最少的项目，它的负责人4月税后拿了多少？", "金额", "F,P,A", A4 + ".loc[" + A4 + ".姓名==P.loc[P.项目编号==one(" + F4 + ".loc[" + F4 + ".项目编号!='XMSQ0125'].set_index('项目编号').开票金额, top=False),'项目负责人'].iloc[0],'税后工资'].iloc[0]  # 区档案馆 45999.08 -> 张丽娟", "value", {}),
    ("徐汇区的服务中项目，1到4月开票一共多少？", "金额", "P,F", "F.loc[F.项目编号.isin(P.loc[(P.市区=='徐汇区')&(" + SVC + "),'项目编号']),'开票金额'].sum()", "value", {}),
    ("持证人员占在职员工的比例是多少？", "比例", "Q,E", "E.loc[" + ZAIZHI + ",'工号'].isin(Q.工号).mean()  # 14 / 33 (every 证书 holder is 在职)", "value", {"pct": True}),
    ("竞争对手去年在人民医院那次投标报了多少钱？", "金额", "T", "None  # 投标记录 holds our own bids only", NONE, {}),
    ("徐汇-文化馆1到4月开了多少票？", "金额", "F", "None  # XMSQ0130 未开始 (2026-07-01); no 项目月度财务 rows", NONE, {}),
    ("北斗园区上一期（2023到2025那期）2024年12月开了多少票？", "金额", "F", "None  # XMSQ0052 has no 项目月度财务 rows; F only 2026-01..04", NONE, {}),
    ("青浦-科创大厦的年化合同额是多少？", "金额", "P", "None  # no 青浦-科创大厦 (徐汇-科创大厦 exists)", NONE, {}),
    ("酬金制项目的酬金比例各是多少？", "比例", "P", "None  # 计费方式 only; no 酬金 rate", NONE, {}),
    ("科创大厦那三次客户投诉，都是投诉什么问题？", "其他", "P,K", "None  # 客户投诉 is a count only; no complaint content", NONE, {}),
    ("滨江公园的绿化分包给了哪家公司？", "单位", "C", "None  # no subcontract records (C: XMSQ0120 has none)", NONE, {}),
    ("夏阳社区中心4月考勤上那几个人，加班一共多少小时？", "数量", "A,G", "None  # wrong premise: XMSQ0125 has 在岗 0 and no 考勤 rows", NONE, {}),
]

BATCHES = [(n, b) for n, b in ((52, B52), (53, B53), (54, B54)) if len(b) == 40]

if __name__ == "__main__":
    for _n, _b in BATCHES:
        p34._check_groups(_b)
    base.write_batches([(n, p40._prep(b)) for n, b in BATCHES], refusals=8)
