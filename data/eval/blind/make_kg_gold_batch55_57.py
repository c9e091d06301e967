"""Fresh blind KG batches 55-57 (eighteenth fresh round, KG only): computes every gold answer with
pandas straight from the sample spreadsheets (data/samples/business/*.xlsx) and writes
kg_batch_{55,56,57}.jsonl next to this file. Written by a helper who did not read the engine, its rules,
the golden sets, the tests, the git history or the old batch files (beyond one record of kg_batch_54.jsonl
for the format, and the questions held in the gold scripts this one imports, which were avoided), and who
did not run the engine, the CLI or the scorer.

Same conventions as make_kg_gold_batch52_54.py (frames P E S Z ZP F A B T G D C K Q W, `cnt`, `pid`,
`NAME`, `WHO` 工号 -> 姓名, `JOB` 姓名 -> 工号, `M(df, ym)` rows of one 年月, `one(series)` the single
index of a maximum/minimum, asserting there is no tie, `DT` = pd.to_datetime, `single(seq)` the only
element of a list, `only(series)` the only distinct value of a column). The pandas expression is kept in
each record's "source"; expected null = not in the data. Bare months mean 2026. Relative dates are read
against the KG run's ZHICE_TODAY=2026-05-01 (今年 = 2026, 上个月 = 2026-04, 去年 = 2025). Month golds are
written YYYY-MM and also accept "M月" (make_kg_gold_batch40_42._prep); two-entity comparisons (kind 比较)
carry a hand-written gold "winner, difference" that `_prep` checks against the computed pair; writer-side
keys "unit", "pct", "pct1" as in make_kg_gold_batch40_42.py (applied and dropped before writing).
Two more writer-side keys, checked by `_verify` here and dropped before writing: "check" (a hand-written
gold, expected / all_of, must come from this computed value) and, for a list with a hand-written all_of,
every computed item must be named by exactly one all_of entry (either side of a "|" inside the item).
Holidays named in questions are spelled out with their date (元旦 1月1日, 清明 4月5日, 妇女节 3月8日);
周末 = Saturday and Sunday of the calendar.

Batch 55 is worded like project-side and office staff in a chat box (short project names, 那个…, 帮我看下),
batch 56 like engineering / purchasing / quality / HR clerks (设备, 采购与维保, 检查, 证书, 岗位字典, 排班
details), batch 57 like a general manager (areas, groups, shares, comparisons with the difference, chains
across two or three sheets).

    .venv/bin/python data/eval/blind/make_kg_gold_batch55_57.py
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kg_gold as base  # noqa: E402
import make_kg_gold_batch34_36 as p34  # noqa: E402  (_check_groups)
import make_kg_gold_batch40_42 as p40  # noqa: E402  (frames and helpers in base.NS, Q1, LEAVE, _prep)
import make_kg_gold_batch52_54 as p52  # noqa: E402  (the previous round: CMP, POST, ORG, BAOAN, ZAIZHI, job_ids, SVC)

NONE = "none"  # not answerable from the spreadsheets: expected null
Q1 = p40.Q1  # 一季度 = ['2026-01','2026-02','2026-03']
BAOAN = p52.BAOAN  # 保安 = 保安_领班 + 保安_普保
ZAIZHI = p52.ZAIZHI  # 在职 = 离职日期 empty
job_ids = p52.job_ids
CMP = p52.CMP  # (winner, difference) of a two-row series
POST = p52.POST  # 工号 -> 岗位名称
ORG = p52.ORG  # 工号 -> 组织名称
LEAVE = p52.LEAVE  # ['事','病','年','调']
SVC = p52.SVC  # (P.服务状态=='服务中')
A1, A2, A3, A4 = ("M(A,'2026-0%d')" % i for i in range(1, 5))
B2 = "M(B,'2026-02')"
B3 = "M(B,'2026-03')"
B4 = "M(B,'2026-04')"
F4 = "M(F,'2026-04')"
LEVEL = "dict(zip(W.岗位名称,W.员工层级))"  # 岗位名称 -> 员工层级 (岗位字典)
WEEKEND4 = "[f'{d}日' for d in range(1,31) if DT(f'2026-04-{d:02d}').dayofweek>=5]"  # 4月的周六周日: 4 5 11 12 18 19 25 26


def longest_run(codes) -> int:
    """The longest run of consecutive scheduled days that are not 休 (an empty day ends a run too)."""
    best = cur = 0
    for c in codes:
        cur = cur + 1 if isinstance(c, str) and c != "休" else 0
        best = max(best, cur)
    return best


def age_on(birth: str, day: str) -> int:
    """Full years of age on ``day`` (both YYYY-MM-DD)."""
    b, d = base.pd.to_datetime(birth), base.pd.to_datetime(day)
    return d.year - b.year - ((d.month, d.day) < (b.month, b.day))


base.NS.update(longest_run=longest_run, age_on=age_on)

B55 = [
    ("夏阳那个项目的合同签到哪天为止？", "日期", "P", "P.loc[P.项目编号=='XMSQ0125','结束日期'].iloc[0]  # 2028 is a leap year", "value",
     {"accept": ["2028年2月29日"]}),
    ("甲方是区体育局的那个项目，现在谁在当项目经理？", "人员", "P", "single(P.loc[P.甲方名称=='上海市青浦区体育局','项目负责人'])  # XMSQ0103", "value", {}),
    ("体育馆当初中标报的价，跟后来签下来的合同金额差了多少钱？", "金额", "T,P", "P.loc[P.项目编号=='XMSQ0103','合同金额'].iloc[0]-single(T.loc[(T.项目编号=='XMSQ0103')&(T.中标结果=='中标'),'投标金额'])  # 3735600 - 3700000", "value",
     {"accept": ["3.56万"]}),
    ("韩立新这四个月里哪个月到手的工资最高？", "日期", "A", "one(A.loc[A.姓名=='韩立新'].set_index('年月').税后工资)  # 4759.74", "value", {}),
    ("秦家豪一季度哪个月加班超时费拿得最多？", "日期", "A", "one(A.loc[(A.姓名=='秦家豪')&A.年月.isin(" + Q1 + ")].set_index('年月').加班超时费)  # 360, 90, 90", "value", {}),
    ("清明节那天（4月5号），考勤上一共有几个人在岗上班？", "数量", "A", "" + A4 + "['5日'].isin(['√','加']).sum()  # 9 休, 1 病, 1 旷", "value", {"accept": ["20人", "20个"]}),
    ("刘德明跟孙海涛这俩领班，一季度加班时长谁多？多几个小时？", "比较", "A", CMP + "(A.loc[A.姓名.isin(['刘德明','孙海涛'])&A.年月.isin(" + Q1 + ")].groupby('姓名').加班小时.sum())  # 52 vs 48", "value",
     {"expected": "刘德明多，多4个小时", "all_of": ["刘德明", "4"]}),
    ("监测中心那个保安是哪年哪月进的公司？", "日期", "E", "single(E.loc[(E.当前服务项目编号=='XMSQ0110')&" + BAOAN + ",'入职日期'])[:7]  # 秦家豪 2025-02-17", "value",
     {"accept": ["2025年2月", "2025-02-17"]}),
    ("孔美玲这四个月一共请了几天假（事病年调都算）？", "数量", "A", "sum(cnt(A.loc[A.姓名=='孔美玲'],c).sum() for c in " + LEAVE + ")  # 2月 事+年, 3月 调", "value", {"accept": ["3天"]}),
    ("科创大厦上个月的票款收齐了没有？", "是否", "F", "(lambda r: (bool(r.开票金额==r.收款金额), r.收款金额))(" + F4 + ".loc[" + F4 + ".项目编号=='XMSQ0112'].iloc[0])  # 上个月 = 2026-04", "value",
     {"expected": "收齐了，4月开票161071.83元，收款161071.83元", "all_of": ["161071.83"], "check": (True, 161071.83)}),
    ("周建国手上那几个项目，合同面积加起来多少平？", "数量", "P", "P.loc[P.项目负责人=='周建国','合同面积'].sum()  # 文体中心, 区图书馆, 体育馆", "value", {"accept": ["8.4万"]}),
    ("徐汇管理处一共有几个男同事？", "数量", "E", "((E.组织名称=='申勤物业徐汇管理处')&(E.性别=='男')).sum()  # none of them has left", "value", {"accept": ["7人", "7个", "7位"]}),
    ("元旦那天有谁来加班了？", "列表", "A", A1 + ".loc[" + A1 + "['1日']=='加','姓名'].tolist()  # 元旦 = 1月1日", "all", {}),
    ("工业园区那台报废的水泵是哪年出厂的？", "日期", "D", "single(D.loc[(D.项目编号=='XMSQ0105')&(D.完好状况=='报废'),'出厂日期'])[:4]  # SB-0105-007 2022-08-01", "value",
     {"accept": ["2022-08-01", "2022年8月"]}),
    ("拖把跟医用消毒液是不是同一家供应商供的？哪家？", "单位", "C", "only(C.loc[C.名称.isin(['拖把','医用级消毒液']),'供应商名称'])", "value",
     {"expected": "是同一家，都是上海洁美清洁用品有限公司", "all_of": ["上海洁美清洁用品有限公司"], "check": "上海洁美清洁用品有限公司"}),
    ("北斗园区那次消防检查查出来啥问题？", "其他", "K", "single(K.loc[(K.项目编号=='XMSQ0152')&(K.检查类型=='消防安全检查'),'问题描述'])", "value", {}),
    ("4月排班里连着上班天数最长的是谁？连上了几天？", "人员", "B", "(lambda s: (one(s), s.max()))(" + B4 + ".set_index('姓名')[DAYS].apply(longest_run, axis=1))  # 许建军 6; next 5", "value",
     {"expected": "许建军，连上6天", "all_of": ["许建军", "6"], "check": ("许建军", 6)}),
    ("上个月过生日的同事里，哪几位是党员？", "列表", "E", "E.loc[(E.出生日期.str[5:7]=='04')&(E.政治面貌=='中共党员'),'姓名'].tolist()  # 上个月 = 2026-04; 周建国, 孔美玲 群众", "all", {}),
    ("青浦片区负责人自己当项目经理的在服项目有几个？", "数量", "Z,P", "(" + SVC + "&(P.项目负责人工号==Z.loc[Z.片区名称=='青浦片区','片区负责人工号'].iloc[0])).sum()  # 周建国", "value", {"accept": ["3个"]}),
    ("何宇航现在归哪个管理处？", "部门", "E", "E.loc[E.姓名=='何宇航','组织名称'].iloc[0]", "value", {"all_of": ["徐汇管理处"]}),
    ("按人员服务期表，郑晓东在赵巷镇政府那段待了几个月？", "数量", "S", "(lambda r: int(r.结束年月[5:])-int(r.开始年月[5:])+1)(single(S.loc[(S.工号==JOB['郑晓东'])&(S.项目编号=='XMSQ0131')].itertuples()))  # 2026-01..2026-02", "value",
     {"accept": ["2个月", "两个月"]}),
    ("哪个标中了以后进场最快？从中标到开始服务隔了几天？", "项目", "T,P", "(lambda s: (NAME[one(s, top=False)], s.min()))(T.dropna(subset=['中标日期']).merge(P[['项目编号','开始日期']],on='项目编号').set_index('项目编号').pipe(lambda d: (DT(d.开始日期)-DT(d.中标日期)).dt.days))  # 2025-06-10 -> 2025-07-01; next 24 (人民医院)", "value",
     {"expected": "赵巷镇政府（XMSQ0131），2025-06-10中标、2025-07-01开始服务，隔21天", "all_of": ["赵巷镇政府|XMSQ0131", "21"], "check": ("赵巷镇政府", 21)}),
    ("何宇航入职那会儿多大岁数？", "数量", "E", "(lambda r: age_on(r.出生日期, r.入职日期))(E.loc[E.姓名=='何宇航'].iloc[0])  # 2000-05-05, 入职 2026-02-02", "value", {"accept": ["25岁"]}),
    ("有保安员证的人里，领班和普保各几个？", "分组", "Q,E", "Q.loc[Q.证书名称=='保安员（三级）'].groupby(Q.工号.map(" + POST + ")).size().to_dict()", "group",
     {"all_of": ["4", "2", "领班", "普保"]}),
    ("金建平和魏大勇，谁负责的设备原值合计多？多多少？", "比较", "D", CMP + "(D.loc[D.设备责任人工号.isin([JOB['金建平'],JOB['魏大勇']])].groupby(D.设备责任人工号.map(WHO)).原值.sum())  # 1810000 vs 1010000", "value",
     {"expected": "金建平多，多800000元（80万）", "all_of": ["金建平", "800000|80万"]}),
    ("体育馆那个保安4月排的中班和夜班加起来几个？", "数量", "B,E", "(lambda d: cnt(d,'中')+cnt(d,'夜'))(" + B4 + ".loc[" + B4 + ".工号==single(E.loc[(E.当前服务项目编号=='XMSQ0103')&" + BAOAN + ",'工号'])]).iloc[0]  # 冯志远 7 + 7", "value", {"accept": ["14个"]}),
    ("王志强1月请了哪几种假？", "列表", "A", "[c+'假' for c in " + LEAVE + " if cnt(" + A1 + ".loc[" + A1 + ".姓名=='王志强'],c).iloc[0]>0]", "all",
     {"all_of": ["事假|事", "病假|病"]}),
    ("档案馆那个客服妹子电话多少？", "电话", "E", "single(E.loc[(E.当前服务项目编号=='XMSQ0115')&(E.岗位名称=='客服'),'联系电话'])  # 戚佳怡", "value", {}),
    ("档案馆4月开的票，收回来几成？", "比例", "F", F4 + ".loc[" + F4 + ".项目编号=='XMSQ0115'].pipe(lambda d: d.收款金额.iloc[0]/d.开票金额.iloc[0])  # 36799.26 / 45999.08", "value",
     {"pct": True, "accept": ["80%", "八成"]}),
    ("人民医院4月考勤上的那几个人里，谁是党员？", "列表", "A,E", A4 + ".loc[(" + A4 + ".项目编号=='XMSQ0118')&" + A4 + ".工号.isin(E.loc[E.政治面貌=='中共党员','工号']),'姓名'].tolist()", "all", {}),
    ("郑晓东调到北斗园区以后，到手工资一共拿了多少？", "金额", "S,A", "A.loc[(A.工号==JOB['郑晓东'])&(A.项目编号=='XMSQ0152')&(A.年月>=single(S.loc[(S.工号==JOB['郑晓东'])&(S.项目编号=='XMSQ0152'),'开始年月'])),'税后工资'].sum()  # 3月 + 4月", "value", {}),
    ("一次投诉都没有的在服项目里，满意度最高的是哪个？", "项目", "P", "NAME[P.loc[one(P.loc[" + SVC + "&(P.客户投诉==0),'客户满意度'])].项目编号]  # 94.3; 赵巷镇政府 93.6, 夏阳 92.8", "value",
     {"all_of": ["区档案馆|XMSQ0115"]}),
    ("郑晓东3月在赵巷镇政府上了几天班？", "数量", "A,S", "None  # wrong premise: from 2026-03 he is at XMSQ0152; no 3月 考勤 row under XMSQ0131", NONE, {}),
    ("北斗园区4月31号是谁上的夜班？", "人员", "B", "None  # April has 30 days", NONE, {}),
    ("周建国的社保缴费基数是多少？", "金额", "E,A", "None  # no 社保 field", NONE, {}),
    ("文体中心那边一共有多少个停车位？", "数量", "P", "None  # no parking data", NONE, {}),
    ("王志刚3月加了多少小时班？", "数量", "A", "None  # no 王志刚 (王志强, 赵永刚 exist)", NONE, {}),
    ("北斗园区的保安4月巡逻漏打卡几次？", "数量", "A,B", "None  # no patrol records", NONE, {}),
    ("迅达电梯那边对接人的电话是多少？", "电话", "C", "None  # 采购与维保 holds no supplier contacts", NONE, {}),
    ("五一劳动节那天谁在值班？", "人员", "A,B", "None  # 5月1日: 考勤 and 排班 only 2026-01..04", NONE, {}),
]

B56 = [
    ("型号是30XW-1152的机组一共有几台？", "数量", "D", "(D.规格型号=='30XW-1152').sum()  # the 空调机组", "value", {"accept": ["5台"]}),
    ("出厂到启用隔得最短的是哪几台设备？", "列表", "D", "(lambda g: D.loc[g==g.min(),'设备编号'].tolist())((DT(D.启用日期)-DT(D.出厂日期)).dt.days)  # 120 days; next 212", "all",
     {"all_of": ["SB-0105-001", "SB-0102-003"]}),
    ("图书馆那几台设备原值加起来多少？", "金额", "D", "D.loc[D.项目编号=='XMSQ0102','原值'].sum()", "value", {"accept": ["98.2万"]}),
    ("放在地下一层设备间的设备，原值一共多少？", "金额", "D", "D.loc[D.安装位置=='地下一层设备间','原值'].sum()  # 5 devices", "value", {"accept": ["147万"]}),
    ("3月份采购的都有些啥？", "列表", "C", "C.loc[C.记录类型.isin(['耗材采购','固定资产'])&C.日期.fillna('').str.startswith('2026-03'),'名称'].tolist()", "all",
     {"all_of": ["LED 灯管|LED灯管", "对讲机电池", "监控硬盘录像机"]}),
    ("维保合同按一年算，哪份最便宜？一年多少钱？", "其他", "C", "(lambda d: (d.loc[one(d.金额/d.合同年限, top=False)].名称, (d.金额/d.合同年限).min()))(C.loc[C.记录类型=='维保合同'])  # 36000 / 2 年", "value",
     {"expected": "消防设施维保（环境监测中心），一年18000元", "all_of": ["消防设施维保", "18000|1.8万"], "check": ("消防设施维保", 18000.0)}),
    ("哪几个项目签了电梯年度维保？", "列表", "C,P", "[NAME[p] for p in C.loc[(C.记录类型=='维保合同')&(C.名称=='电梯年度维保'),'项目编号']]", "all",
     {"all_of": ["工业园区|XMSQ0105", "区图书馆|XMSQ0102"]}),
    ("医院那边买耗材一共花了多少钱？", "金额", "C", "C.loc[(C.记录类型=='耗材采购')&(C.项目编号=='XMSQ0118'),'金额'].sum()  # 消毒液 4260 + 垃圾袋 480", "value", {}),
    ("2月份买的耗材加固定资产，一共花了多少？", "金额", "C", "C.loc[C.记录类型.isin(['耗材采购','固定资产'])&C.日期.fillna('').str.startswith('2026-02'),'金额'].sum()  # 垃圾袋 480 + 洗地机 26800", "value", {}),
    ("3月8号妇女节那天，女同事里谁没来上班？", "列表", "A,E", A3 + ".loc[~" + A3 + "['8日'].isin(['√','加'])&" + A3 + ".工号.isin(E.loc[E.性别=='女','工号']),'姓名'].tolist()", "all", {}),
    ("4月的周六周日，刘德明一共排了几个夜班？", "数量", "B", "(" + B4 + ".set_index('姓名').loc['刘德明'," + WEEKEND4 + "]=='夜').sum()", "value", {"accept": ["3个"]}),
    ("查出“监控存储不足 30 天”的那几次检查，平均得分多少？", "数量", "K", "K.loc[K.问题描述=='监控存储不足 30 天','检查得分'].mean()  # 80, 80, 84", "value", {"accept": ["81.3"]}),
    ("检查出问题的那些，从检查到整改完平均花了几天？", "数量", "K", "(DT(K.整改完成日期)-DT(K.检查日期)).dt.days.dropna().mean()  # every one 3 days", "value", {"accept": ["3天"]}),
    ("陶明亮那本证属于啥专业类别？", "类别", "Q", "single(Q.loc[Q.姓名=='陶明亮','专业类别'])", "value", {}),
    ("岗位字典里算职能人员的是哪几个岗位？", "列表", "W", "W.loc[W.员工层级=='职能人员','岗位名称'].tolist()", "all", {}),
    ("人员表里员工层级没填的那些人，按岗位字典算一线员工的有几个？", "数量", "E,W", "(E.员工层级.isna()&(E.岗位名称.map(" + LEVEL + ")=='一线员工')).sum()  # 12 empty: 2 项目经理, 1 采购专员, 9 一线", "value", {"accept": ["9人", "9个"]}),
    ("入职最晚的三个人是谁？", "列表", "E", "(lambda s: E.loc[s.index[:3],'姓名'].tolist() if s.iloc[2]>s.iloc[3] else None)(E.入职日期.sort_values(ascending=False))  # no tie at the third", "all", {}),
    ("党员里面年纪最小的是谁？", "人员", "E", "WHO[E.loc[one(DT(E.loc[E.政治面貌=='中共党员','出生日期']))].工号]", "value", {}),
    ("工程维修师傅里最年轻那位，手机号多少？", "电话", "E", "E.loc[one(DT(E.loc[E.岗位名称=='工程维修','出生日期'])),'联系电话']  # 陶明亮 1992", "value", {}),
    ("值班费一般一个月给多少？", "金额", "A", "only(A.loc[A.值班费>0,'值班费'])", "value", {"accept": ["200元"]}),
    ("国定加班费，领班和普保一个月各拿多少？", "分组", "A,E", "A.loc[A.国定加班费>0].groupby(A.工号.map(" + POST + ")).国定加班费.agg(only).to_dict()  # 1月, 2月 only", "group",
     {"all_of": ["1710", "1324", "领班", "普保"]}),
    ("吕秀英跟施桂兰，一季度谁上班天数多？多几天？", "比较", "A", CMP + "(A.loc[A.姓名.isin(['吕秀英','施桂兰'])&A.年月.isin(" + Q1 + ")].groupby('姓名').上班天数.sum())  # 64 vs 62", "value",
     {"expected": "施桂兰多，多2天", "all_of": ["施桂兰", "2"]}),
    ("工程维修那几个人2月一共排了多少个全天班？", "数量", "B,E", "cnt(" + B2 + ".loc[" + B2 + ".工号.isin(" + job_ids('工程维修') + ")],'全').sum()", "value", {}),
    ("何宇航2月排的第一个夜班是几号？", "日期", "B", "(lambda r: next(d for d in DAYS if r[d]=='夜'))(" + B2 + ".loc[" + B2 + ".姓名=='何宇航'].iloc[0])", "value",
     {"expected": "2月2日", "accept": ["2026-02-02", "02-02"], "check": "2日"}),
    ("4月1号早班是谁上的？", "列表", "B", B4 + ".loc[" + B4 + "['1日']=='早','姓名'].tolist()", "all", {}),
    ("1到4月里哪个项目每个月的票款都收齐了？", "项目", "F", "NAME[single([p for p, g in F.groupby('项目编号') if (g.收款金额==g.开票金额).all()])]", "value",
     {"all_of": ["滨江公园|XMSQ0120"]}),
    ("人民医院哪个月开票最多？", "日期", "F", "one(F.loc[F.项目编号=='XMSQ0118'].set_index('年月').开票金额)  # 278856.49", "value", {}),
    ("科创大厦的保安编制几个，现在在岗几个？", "其他", "G", "(lambda g: [g.项目编制.sum(), g.在岗人数.sum()])(G.loc[(G.项目编号=='XMSQ0112')&G.岗位.str.startswith('保安')])  # 领班 1/1, 普保 2/1", "all",
     {"expected": "编制3个（领班1、普保2），在岗2个", "all_of": ["3", "2"], "check": [3, 2]}),
    ("哪些项目配了工程维修岗？", "列表", "G,P", "[NAME[p] for p in G.loc[G.岗位=='工程维修','项目编号']]", "all",
     {"all_of": ["工业园区|XMSQ0105", "环境监测中心|XMSQ0110", "科创大厦|XMSQ0112", "人民医院|XMSQ0118"]}),
    ("现在派在医院的员工里，有证书的是哪几个？", "列表", "E,Q", "E.loc[(E.当前服务项目编号=='XMSQ0118')&E.工号.isin(Q.工号),'姓名'].tolist()", "all", {}),
    ("保洁阿姨里4月请过假的是哪几位？", "列表", "A,E", A4 + ".loc[" + A4 + ".工号.isin(" + job_ids('保洁员') + ")&(sum(cnt(" + A4 + ",c) for c in " + LEAVE + ")>0),'姓名'].tolist()", "all", {}),
    ("姜雨婷4月有几次是上完晚班、第二天接着上早班的？", "数量", "B", "(lambda r: sum(r[DAYS[i]]=='晚' and r[DAYS[i+1]]=='早' for i in range(29)))(" + B4 + ".loc[" + B4 + ".姓名=='姜雨婷'].iloc[0])", "value", {}),
    ("高压电工证的考证费用公司报销了多少？", "金额", "Q", "None  # no training / reimbursement data", NONE, {}),
    ("洗地机是什么牌子的？", "其他", "C", "None  # no brand field; 供应商名称 empty", NONE, {}),
    ("监测中心那台2号消防水泵放在哪？", "地址", "D", "None  # XMSQ0110 has only 1号消防水泵 (SB-0110-002)", NONE, {}),
    ("人民医院上个月的检查得了多少分？", "数量", "K", "None  # 上个月 = 2026-04; 检查记录 has no XMSQ0118 row at all", NONE, {}),
    ("徐汇-文化馆的岗位编制一共几个人？", "数量", "G", "None  # 岗位编制 has no XMSQ0130 rows", NONE, {}),
    ("喻志华3月的加班超时费拿了多少？", "金额", "A", "None  # 喻志华 (采购专员) has no 考勤与人员财务 row", NONE, {}),
    ("保安员证是哪个单位发的？", "单位", "Q", "None  # no issuing authority", NONE, {}),
    ("消防设施维保那份合同，付款方式是怎么约定的？", "其他", "C", "None  # no payment terms", NONE, {}),
]

B57 = [
    ("项目片区关系表里，哪个项目同时挂在两个片区下面？", "项目", "ZP,P", "NAME[single(ZP.groupby('项目编号').片区编号.nunique().pipe(lambda s: s[s>1].index))]", "value",
     {"all_of": ["科创大厦|XMSQ0112"]}),
    ("徐汇片区下面在服务的项目，合同面积一共多少平？", "数量", "ZP,Z,P", "P.loc[" + SVC + "&P.项目编号.isin(ZP.loc[ZP.片区编号==Z.loc[Z.片区名称=='徐汇片区','片区编号'].iloc[0],'项目编号']),'合同面积'].sum()  # XMSQ0110, 0112, 0115, 0120", "value",
     {"accept": ["20.7万"]}),
    ("两位片区负责人，谁自己名下在服项目的年化合同额多？多多少？", "比较", "Z,P", CMP + "(P.loc[" + SVC + "&P.项目负责人工号.isin(Z.片区负责人工号)].groupby('项目负责人').年化合同额.sum())  # 周建国 4800000, 李晓峰 2710000", "value",
     {"expected": "周建国多，多2090000元（209万）", "all_of": ["周建国", "2090000|209万"]}),
    ("赵巷镇政府续签以后，合同金额比上一期少了多少？", "金额", "P", "(lambda r: P.loc[P.项目编号==r.续签前项目编号,'合同金额'].iloc[0]-r.合同金额)(P.loc[P.项目编号=='XMSQ0131'].iloc[0])  # 2580000 -> 1840000", "value",
     {"accept": ["74万"]}),
    ("在服项目里，客户满意度和毛利率都高于平均水平的有哪几个？", "列表", "P", "(lambda p: p.loc[(p.客户满意度>p.客户满意度.mean())&(p.实际毛利率>p.实际毛利率.mean()),'项目名称'].tolist())(P.loc[" + SVC + "])  # means 91.54, 0.1578", "all",
     {"all_of": ["文体中心|XMSQ0100", "人民医院|XMSQ0118", "夏阳|XMSQ0125"]}),
    ("在服项目的客户投诉，青浦区和徐汇区各多少次？", "分组", "P", "P.loc[" + SVC + "].groupby('市区').客户投诉.sum().to_dict()", "group",
     {"all_of": ["9", "5", "青浦", "徐汇"]}),
    ("4月按项目算人均到手工资，哪个项目最高？", "项目", "A,P", "NAME[one(" + A4 + ".groupby('项目编号').税后工资.mean())]  # 滨江公园 7428.42 (张丽娟, 许建军)", "value",
     {"all_of": ["滨江公园|XMSQ0120"]}),
    ("1到4月哪个月全公司请假天数最多（事病年调都算）？", "日期", "A", "one(A.assign(n=sum(cnt(A,c) for c in " + LEAVE + ")).groupby('年月').n.sum())  # 9, 13, 12, 12", "value", {}),
    ("4月保安（领班加普保）的工资占全公司当月工资总额多少？", "比例", "A,E", A4 + ".loc[" + A4 + ".工号.isin(E.loc[" + BAOAN + ",'工号']),'税后工资'].sum()/" + A4 + ".税后工资.sum()", "value", {"pct": True}),
    ("4月有证书的和没证书的员工，平均到手差多少？", "比较", "A,Q", CMP + "(" + A4 + ".groupby(" + A4 + ".工号.isin(Q.工号).map({True:'有证书',False:'没证书'})).税后工资.mean())  # 14 vs 17 rows", "value",
     {"expected": "有证书的高，平均高2270.83元", "all_of": ["有证书|有证", "2270.83"]}),
    ("标准工时人数比项目编制少得最多的是哪个项目？", "项目", "G,P", "NAME[one(G.groupby('项目编号').pipe(lambda g: g.项目编制.sum()-g.标准工时人数.sum()))]  # 3; every other project 2", "value",
     {"all_of": ["夏阳|XMSQ0125"]}),
    ("1到4月开票总额里，园区类项目占了多少？", "比例", "F,P", "F.loc[F.项目编号.isin(P.loc[P.汇总业态=='园区','项目编号']),'开票金额'].sum()/F.开票金额.sum()  # 北斗园区 + 工业园区", "value", {"pct": True}),
    ("项目经理里谁4月到手最少？", "人员", "A,E", "WHO[" + A4 + ".loc[one(" + A4 + ".loc[" + A4 + ".工号.isin(" + job_ids('项目经理') + "),'税后工资'], top=False)].工号]", "value", {}),
    ("陈慧敏经办的那些投标，中标率多少？", "比例", "T", "(T.loc[T.投标经办人工号==JOB['陈慧敏'],'中标结果']=='中标').mean()  # 3 of 4 (XMSQ0099 未中标)", "value",
     {"pct": True, "accept": ["75%", "3/4"]}),
    ("有设备的项目里，哪个项目的设备平均原值最高？", "项目", "D,P", "NAME[one(D.groupby('项目编号').原值.mean())]  # 327333.33; 监测中心 301666.67", "value",
     {"all_of": ["区图书馆|XMSQ0102"]}),
    ("客服那三个人，1到4月谁的加班超时费最多？", "人员", "A,E", "one(A.loc[A.工号.isin(" + job_ids('客服') + ")].groupby('姓名').加班超时费.sum())  # 990, 450, 360", "value", {}),
    ("哪个月全公司餐费发得最多？", "日期", "A", "one(A.groupby('年月').餐费.sum())  # 10305 (31 rows)", "value", {}),
    ("有检查记录的项目里，平均分最高的是哪个？", "项目", "K,P", "NAME[one(K.groupby('项目编号').检查得分.mean())]  # 98 (one check); 体育馆 90", "value",
     {"all_of": ["环境监测中心|XMSQ0110"]}),
    ("李晓峰负责的两个项目，检查平均分哪个高？高多少？", "比较", "K,P", CMP + "(K.loc[K.项目编号.isin(P.loc[P.项目负责人=='李晓峰','项目编号'])].groupby(K.项目编号.map(NAME)).检查得分.mean())  # 98 vs 82.5 (84, 81)", "value",
     {"expected": "环境监测中心高，高15.5分", "all_of": ["环境监测中心", "15.5"]}),
    ("2月和3月比，全公司加班超时费哪个月多？多多少？", "比较", "A", CMP + "(A.loc[A.年月.isin(['2026-02','2026-03'])].groupby('年月').加班超时费.sum())  # 4860 vs 4770", "value",
     {"expected": "2月多，多90元", "all_of": ["2月|2026-02", "90"]}),
    ("人民医院和工业园区，1到4月收款合计谁多？多多少？", "比较", "F", CMP + "(F.loc[F.项目编号.isin(['XMSQ0118','XMSQ0105'])].groupby(F.项目编号.map(NAME)).收款金额.sum())  # 1015591.73 vs 671726.82", "value",
     {"expected": "人民医院多，多343864.91元", "all_of": ["人民医院", "343864.91"]}),
    ("4月哪个管理处人均加班时间多？多几个小时？", "比较", "A,E", CMP + "(" + A4 + ".groupby(" + A4 + ".工号.map(" + ORG + ")).加班小时.mean())  # 青浦 136/21, 徐汇 48/10", "value",
     {"expected": "青浦管理处多，人均多1.68小时", "all_of": ["青浦管理处|青浦", "1.68"]}),
    ("年化合同额最高的那个项目，项目经理手机号多少？", "电话", "P,E", "E.loc[E.工号==P.loc[one(P.年化合同额)].项目负责人工号,'联系电话'].iloc[0]  # 人民医院 -> 王志强", "value", {}),
    ("人民医院的年化合同额折到每个月，跟4月实际开票比差多少？", "金额", "P,F", F4 + ".loc[" + F4 + ".项目编号=='XMSQ0118','开票金额'].iloc[0]-P.loc[P.项目编号=='XMSQ0118','年化合同额'].iloc[0]/12  # 278856.49 - 266666.67: 开票多", "value", {}),
    ("4月除了项目经理，哪个岗位人均到手最高？", "类别", "A,E", "one(" + A4 + ".loc[~" + A4 + ".工号.isin(" + job_ids('项目经理') + ")].groupby(" + A4 + ".工号.map(" + POST + ")).税后工资.mean())  # 6091.20; 保安_领班 5680.57", "value", {}),
    ("保安_普保这个岗位，全公司编制多少人、实际在岗多少？", "其他", "G", "(lambda g: [g.项目编制.sum(), g.在岗人数.sum()])(G.loc[G.岗位=='保安_普保'])", "all",
     {"expected": "编制22人，在岗10人", "all_of": ["22", "10"], "check": [22, 10]}),
    ("2月考勤表上有、排班表上却没有的人，都是什么岗位的？", "类别", "A,B,E", "only(pd.Series([" + POST + "[w] for w in set(" + A2 + ".工号)-set(" + B2 + ".工号)]))  # the 5 项目经理", "value", {}),
    ("在服项目里毛利率超过20%的，年化合同额一共多少？", "金额", "P", "P.loc[" + SVC + "&(P.实际毛利率>0.2),'年化合同额'].sum()  # 文体中心, 工业园区, 夏阳", "value", {"accept": ["497万"]}),
    ("持证人数哪个管理处多？多几个人？", "比较", "Q,E", CMP + "(Q.groupby(Q.工号.map(" + ORG + ")).工号.nunique())  # 青浦 10, 徐汇 4", "value",
     {"expected": "青浦管理处多，多6个人", "all_of": ["青浦管理处|青浦", "6"]}),
    ("1到4月开票按汇总业态分，各是多少？", "分组", "F,P", "F.groupby(F.项目编号.map(dict(zip(P.项目编号,P.汇总业态)))).开票金额.sum().to_dict()", "group", {}),
    ("毛利率最高的在服项目，一季度开了多少票？", "金额", "P,F", "F.loc[(F.项目编号==P.loc[one(P.loc[" + SVC + ",'实际毛利率'])].项目编号)&F.年月.isin(" + Q1 + "),'开票金额'].sum()  # 工业园区 0.238", "value", {}),
    ("设备原值里，待修加报废的占了多少？", "比例", "D", "D.loc[D.完好状况!='完好','原值'].sum()/D.原值.sum()  # 664000 / 6214000", "value", {"pct": True}),
    ("今年的开票目标完成了百分之几？", "比例", "F", "None  # no target", NONE, {}),
    ("工业园区上一期的合同金额是多少？", "金额", "P", "None  # wrong premise: XMSQ0105 has no 续签前项目编号", NONE, {}),
    ("李晓峰去年的年终奖发了多少？", "金额", "A", "None  # no bonus item; 考勤与人员财务 only 2026-01..04", NONE, {}),
    ("徐汇片区的副片区经理是谁？", "人员", "Z", "None  # 片区信息 holds only 片区负责人", NONE, {}),
    ("夏阳社区中心那次投标，一共有几家来竞标？", "数量", "T", "None  # 投标记录 holds our own bids only", NONE, {}),
    ("保洁员这个岗位的工资标准是多少？", "金额", "W", "None  # 岗位字典 holds 员工层级 only", NONE, {}),
    ("哪个项目的水电费最高？", "项目", "F", "None  # no utility costs", NONE, {}),
    ("人民医院那台1号空调机组上次维修花了多少钱？", "金额", "D,C", "None  # no repair records (中央空调维保 is a yearly contract)", NONE, {}),
]


def _verify(batch: list) -> list:
    """Check the hand-written golds against the computed values and drop the writer-side key "check":
    a "check" must equal the computed value (numbers compared with base.fmt); a list with a hand-written
    all_of must have one all_of entry per computed item, each item named by exactly one entry."""
    out = []
    for q, kind, frames, expr, how, extra in batch:
        extra = dict(extra)
        if how == NONE:
            out.append((q, kind, frames, expr, how, extra))
            continue
        v = eval(expr.split("  #")[0], base.NS)  # noqa: S307 - our own expressions
        if "check" in extra:
            want = extra.pop("check")
            got = list(v) if isinstance(v, (tuple, list)) else [v]
            want = list(want) if isinstance(want, (tuple, list)) else [want]
            norm = [base.fmt(x) if not isinstance(x, str) else x for x in got]
            wnorm = [base.fmt(x) if not isinstance(x, str) else x for x in want]
            assert len(norm) == len(wnorm) and all(g == w or g.endswith(w) for g, w in zip(norm, wnorm)), (q, got, want)
        elif how == "all" and "all_of" in extra:
            items = [base.fmt(x) for x in v]
            assert len(items) == len(extra["all_of"]), (q, items, extra["all_of"])
            for it in items:
                hits = [e for e in extra["all_of"] if any(a in it or it in a for a in e.split("|"))]
                assert len(hits) == 1, (q, it, hits)
        elif how == "value" and "all_of" in extra and kind != "比较":
            got = base.fmt(v)
            assert any(a in got or got in a for a in extra["all_of"][0].split("|")), (q, got, extra["all_of"])
        out.append((q, kind, frames, expr, how, extra))
    return out


BATCHES = [(55, B55), (56, B56), (57, B57)]

if __name__ == "__main__":
    for _n, _b in BATCHES:
        p34._check_groups(_b)
    base.write_batches([(n, p40._prep(_verify(b))) for n, b in BATCHES], refusals=8)
