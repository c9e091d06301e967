"""Fresh blind KG batches 58-60 (nineteenth fresh round, KG only): computes every gold answer with
pandas straight from the sample spreadsheets (data/samples/business/*.xlsx) and writes
kg_batch_{58,59,60}.jsonl next to this file. Written by a helper who did not read the engine, its rules,
the golden sets, the tests, the git history or the old batch files (beyond one record of kg_batch_57.jsonl
for the format, and the questions held in the gold scripts make_kg_gold.py, make_kg_gold_batch40_42.py,
make_kg_gold_batch52_54.py and make_kg_gold_batch55_57.py, which were avoided), and who did not run the
engine, the CLI or the scorer.

Same conventions as make_kg_gold_batch55_57.py (frames P E S Z ZP F A B T G D C K Q W, `cnt`, `pid`,
`NAME`, `WHO` 工号 -> 姓名, `JOB` 姓名 -> 工号, `M(df, ym)` rows of one 年月, `one(series)` the single
index of a maximum/minimum, asserting there is no tie, `DT` = pd.to_datetime, `single(seq)` the only
element of a list, `only(series)` the only distinct value of a column, `age_on(birth, day)` full years).
The pandas expression is kept in each record's "source"; expected null = not in the data. Bare months
mean 2026. Relative dates are read against the KG run's ZHICE_TODAY=2026-05-01 (今年 = 2026, 上个月 =
2026-04, 下个月 = 2026-06, 去年 = 2025). Month golds are written YYYY-MM and also accept "M月"
(make_kg_gold_batch40_42._prep); two-entity comparisons (kind 比较) carry a hand-written gold
"winner, difference" that `_prep` checks against the computed pair; writer-side keys "unit", "pct",
"pct1" as in make_kg_gold_batch40_42.py and "check" as in make_kg_gold_batch55_57.py (a hand-written gold
must come from this computed value; a list with a hand-written all_of must name every computed item
exactly once), all applied by `_verify` / `_prep` and dropped before writing. Differences of two
percentages are written in percentage points (the expression multiplies by 100). `second(series)` is
the index of the second-largest value, asserting no tie at the first, second or third place.

Batch 58 is worded like project managers and site supervisors in a chat box (short project names,
那边 / 那台 / 上个月, 帮我看下), batch 59 like finance / HR / purchasing clerks (开票收款, 工资餐费值班费,
人员信息, 证书, 设备, 采购与维保, 投标, 岗位编制), batch 60 like senior managers (rankings, shares,
comparisons with the difference, totals per group, chains across two or three sheets).

    .venv/bin/python data/eval/blind/make_kg_gold_batch58_60.py
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kg_gold as base  # noqa: E402
import make_kg_gold_batch34_36 as p34  # noqa: E402  (_check_groups)
import make_kg_gold_batch40_42 as p40  # noqa: E402  (frames and helpers in base.NS, Q1, _prep)
import make_kg_gold_batch55_57 as p55  # noqa: E402  (the previous round: CMP, POST, ORG, BAOAN, ZAIZHI, job_ids, SVC, LEAVE, _verify; registers age_on)

NONE = "none"  # not answerable from the spreadsheets: expected null
Q1 = p40.Q1  # 一季度 = ['2026-01','2026-02','2026-03']
BAOAN = p55.BAOAN  # 保安 = 保安_领班 + 保安_普保
ZAIZHI = p55.ZAIZHI  # 在职 = 离职日期 empty
job_ids = p55.job_ids
CMP = p55.CMP  # (winner, difference) of a two-row series
POST = p55.POST  # 工号 -> 岗位名称
ORG = p55.ORG  # 工号 -> 组织名称
LEAVE = p55.LEAVE  # ['事','病','年','调']
SVC = p55.SVC  # (P.服务状态=='服务中')
A1, A2, A3, A4 = ("M(A,'2026-0%d')" % i for i in range(1, 5))
B4 = "M(B,'2026-04')"
F3 = "M(F,'2026-03')"
F4 = "M(F,'2026-04')"
RATE = "(lambda d: d.收款金额.sum()/d.开票金额.sum())"  # 回款率 of some 项目月度财务 rows


def second(s):
    """The index of the second-largest value of ``s``, asserting that the first three places are distinct."""
    v = s.sort_values(ascending=False)
    assert v.iloc[0] > v.iloc[1] > v.iloc[2], v.head(3)
    return v.index[1]


base.NS.update(second=second)

B58 = [
    ("文体中心底下挂了哪几个子项目？", "列表", "P", "P.loc[P.上级项目编号=='XMSQ0100','项目名称'].tolist()  # 上级项目编号", "all",
     {"all_of": ["区图书馆|XMSQ0102", "体育馆|XMSQ0103"]}),
    ("科创大厦的甲方全称叫什么？", "单位", "P", "P.loc[P.项目编号=='XMSQ0112','甲方名称'].iloc[0]", "value", {}),
    ("滨江公园项目地址在哪？", "地址", "P", "P.loc[P.项目编号=='XMSQ0120','项目地址'].iloc[0]", "value", {}),
    ("监测中心上个月回款多少？", "金额", "F", F4 + ".loc[" + F4 + ".项目编号=='XMSQ0110','收款金额'].iloc[0]  # 上个月 = 2026-04", "value", {}),
    ("工业园区4月的款收齐了没？", "是否", "F", "(lambda r: (bool(r.收款金额>=r.开票金额), r.开票金额-r.收款金额))(" + F4 + ".loc[" + F4 + ".项目编号=='XMSQ0105'].iloc[0])  # 180313.59 - 162282.23", "value",
     {"expected": "没收齐，4月开票180313.59元、收款162282.23元，还差18031.36元", "all_of": ["18031.36"], "check": (False, 18031.36)}),
    ("档案馆1到4月一共开了多少票？", "金额", "F", "F.loc[F.项目编号=='XMSQ0115','开票金额'].sum()", "value", {}),
    ("夏阳4月开票比3月少了多少？", "金额", "F", "(lambda s: s['2026-03']-s['2026-04'])(F.loc[F.项目编号=='XMSQ0125'].set_index('年月').开票金额)  # 36410.86 -> 33635.40", "value", {}),
    ("图书馆那边4月谁加班时间最长？", "人员", "A", "one(" + A4 + ".loc[" + A4 + ".项目编号=='XMSQ0102'].set_index('姓名').加班小时)  # 吕秀英 12, 姜雨婷 8, the others 0", "value", {}),
    ("孙海涛4月是哪天调的休？", "日期", "A", "single([d for d in DAYS if " + A4 + ".loc[" + A4 + ".姓名=='孙海涛',d].iloc[0]=='调'])", "value",
     {"expected": "4月29日", "accept": ["2026-04-29", "04-29", "29号"], "check": "29日"}),
    ("姜雨婷4月排了几个晚班？", "数量", "B", "cnt(" + B4 + ".loc[" + B4 + ".姓名=='姜雨婷'],'晚').iloc[0]", "value", {"accept": ["4个"]}),
    ("医院那边4月15号是谁调休了？", "人员", "A", "single(" + A4 + ".loc[(" + A4 + ".项目编号=='XMSQ0118')&(" + A4 + "['15日']=='调'),'姓名'])", "value", {}),
    ("工业园区那台柴油发电机放在哪？", "地址", "D", "single(D.loc[(D.项目编号=='XMSQ0105')&(D.设备名称=='1号柴油发电机'),'安装位置'])  # SB-0105-005", "value", {}),
    ("监测中心那两台客梯分别是哪年出厂的？", "日期", "D", "D.loc[(D.项目编号=='XMSQ0110')&(D.设备类型=='电梯'),'出厂日期'].str[:4].tolist()  # 1号 2016-04-01, 2号 2015-01-01", "all",
     {"expected": "1号客梯2016年（2016-04-01）、2号客梯2015年（2015-01-01）", "all_of": ["2016", "2015"]}),
    ("人民医院那几台设备是谁在管？", "人员", "D", "WHO[only(D.loc[D.项目编号=='XMSQ0118','设备责任人工号'])]", "value", {}),
    ("科创大厦4月考勤上那几个人，到手工资一共多少？", "金额", "A", A4 + ".loc[" + A4 + ".项目编号=='XMSQ0112','税后工资'].sum()  # 吴建华, 何宇航, 陶明亮", "value", {}),
    ("赵巷镇那个客服4月上了几天班？", "数量", "A,E", A4 + ".loc[" + A4 + ".工号==single(E.loc[(E.当前服务项目编号=='XMSQ0131')&(E.岗位名称=='客服'),'工号']),'上班天数'].iloc[0]  # 谢梦瑶", "value", {"accept": ["22天"]}),
    ("北斗园区现在保安在岗几个？", "数量", "G", "G.loc[(G.项目编号=='XMSQ0152')&G.岗位.str.startswith('保安'),'在岗人数'].sum()  # 普保 only; 郑晓东, 朱俊杰", "value", {"accept": ["2个", "2人"]}),
    ("档案馆编制还缺几个人没到岗？", "数量", "G", "(lambda g: g.项目编制.sum()-g.在岗人数.sum())(G.loc[G.项目编号=='XMSQ0115'])  # 普保 1/0, 保洁员 2/1, 客服 1/1", "value", {"accept": ["2个", "2人"]}),
    ("刘德明3月有几天考勤记的是加班？", "数量", "A", "cnt(" + A3 + ".loc[" + A3 + ".姓名=='刘德明'],'加').iloc[0]  # 2日, 6日, 9日", "value", {"accept": ["3天"]}),
    ("钱国庆3月哪天旷的工？", "日期", "A", "single([d for d in DAYS if " + A3 + ".loc[" + A3 + ".姓名=='钱国庆',d].iloc[0]=='旷'])", "value",
     {"expected": "3月5日", "accept": ["2026-03-05", "03-05", "5号"], "check": "5日"}),
    ("韩立新上个月排了几个夜班？", "数量", "B", "cnt(" + B4 + ".loc[" + B4 + ".姓名=='韩立新'],'夜').iloc[0]  # 上个月 = 2026-04", "value", {}),
    ("周建国那三个项目4月一共开了多少票？", "金额", "P,F", F4 + ".loc[" + F4 + ".项目编号.isin(P.loc[P.项目负责人=='周建国','项目编号']),'开票金额'].sum()  # 文体中心, 区图书馆, 体育馆", "value", {}),
    ("陈慧敏手上在服的两个项目，客户满意度平均多少？", "数量", "P", "P.loc[" + SVC + "&(P.项目负责人=='陈慧敏'),'客户满意度'].mean()  # 北斗园区 85.0, 赵巷镇政府 93.6", "value", {"accept": ["89.3分"]}),
    ("工业园区4月那次检查得了几分？查出啥问题没？", "数量", "K", "(lambda r: (r.检查得分, bool(pd.isna(r.问题描述))))(single(K.loc[(K.项目编号=='XMSQ0105')&K.检查日期.str.startswith('2026-04')].itertuples()))  # 月度品质检查 2026-04-19", "value",
     {"expected": "81分（4月19日月度品质检查），没有记录问题", "all_of": ["81"], "check": (81, True)}),
    ("体育馆3月那次检查查出啥毛病？哪天整改完的？", "其他", "K", "(lambda r: (r.问题描述, r.整改完成日期))(single(K.loc[(K.项目编号=='XMSQ0103')&K.检查日期.str.startswith('2026-03')].itertuples()))", "value",
     {"expected": "电梯轿厢照明损坏，2026-03-19整改完成", "all_of": ["电梯轿厢照明", "03-19|3月19日"], "check": ("电梯轿厢照明损坏", "2026-03-19")}),
    ("图书馆的电梯维保一年多少钱？是哪家做的？", "金额", "C", "(lambda r: (r.金额, r.供应商名称))(single(C.loc[(C.记录类型=='维保合同')&(C.项目编号=='XMSQ0102')].itertuples()))  # 合同年限 1", "value",
     {"expected": "24000元，上海迅达电梯有限公司", "all_of": ["24000|2.4万", "迅达"], "check": (24000, "上海迅达电梯有限公司")}),
    ("谢梦瑶是哪个管理处的？", "部门", "E", "E.loc[E.姓名=='谢梦瑶','组织名称'].iloc[0]", "value", {"all_of": ["青浦管理处"]}),
    ("保洁推车是哪个项目买的？", "项目", "C,P", "NAME[single(C.loc[C.名称=='保洁推车','项目编号'])]", "value", {"all_of": ["科创大厦|XMSQ0112"]}),
    ("何宇航跟秦家豪4月谁上班天数多？多几天？", "比较", "A", CMP + "(" + A4 + ".loc[" + A4 + ".姓名.isin(['何宇航','秦家豪'])].set_index('姓名').上班天数)  # 22 vs 21", "value",
     {"expected": "何宇航多，多1天", "all_of": ["何宇航", "1"]}),
    ("许建军4月旷了几天工？", "数量", "A", "cnt(" + A4 + ".loc[" + A4 + ".姓名=='许建军'],'旷').iloc[0]  # 5日, 11日, 16日", "value", {"accept": ["3天"]}),
    ("人民医院那台空调机组是哪年启用的？", "日期", "D", "single(D.loc[(D.项目编号=='XMSQ0118')&(D.设备类型=='空调'),'启用日期'])[:4]  # SB-0118-003 2013-03-01", "value",
     {"accept": ["2013-03-01", "2013年3月"]}),
    ("体育馆那个保洁大姐电话多少？", "电话", "E", "single(E.loc[(E.当前服务项目编号=='XMSQ0103')&(E.岗位名称=='保洁员'),'联系电话'])  # 施桂兰", "value", {}),
    ("文体中心那边4月保安排了几个夜班？", "数量", "B,E", "None  # wrong premise: nobody serves XMSQ0100 (no 当前服务项目编号, no 排班 or 考勤 rows)", NONE, {}),
    ("科创大厦5月开了多少票？", "金额", "F", "None  # 项目月度财务 only 2026-01..04", NONE, {}),
    ("工业园区的电梯下次维保是哪天？", "日期", "C,D", "None  # no maintenance schedule (电梯年度维保 is a yearly contract row)", NONE, {}),
    ("孙海涛下个月的班是怎么排的？", "其他", "B", "None  # 下个月 = 2026-06; 排班 only 2026-01..04", NONE, {}),
    ("张伟3月上了几天班？", "数量", "A", "None  # no 张伟 in 人员信息 or 考勤", NONE, {}),
    ("人民医院哪个科室投诉最多？", "其他", "P", "None  # 客户投诉 is a per-project count; no departments", NONE, {}),
    ("监测中心那台柴油发电机一个月烧多少油？", "数量", "D", "None  # no fuel / usage data", NONE, {}),
    ("滨江公园里绿化面积有多大？", "数量", "P", "None  # 合同面积 is one total; no 绿化面积", NONE, {}),
]

B59 = [
    ("上个月全公司一共收回来多少款？", "金额", "F", F4 + ".收款金额.sum()  # 上个月 = 2026-04", "value", {}),
    ("科创大厦3月还有多少票款没收回来？", "金额", "F", "(lambda r: r.开票金额-r.收款金额)(" + F3 + ".loc[" + F3 + ".项目编号=='XMSQ0112'].iloc[0])  # 164385.02 - 131508.02", "value", {}),
    ("1到4月开票总额和收款总额差多少？", "金额", "F", "F.开票金额.sum()-F.收款金额.sum()", "value", {}),
    ("赵巷镇政府1到4月有几个月的款没收齐？", "数量", "F", "(lambda g: (g.收款金额<g.开票金额).sum())(F.loc[F.项目编号=='XMSQ0131'])  # 2月, 3月, 4月", "value", {"accept": ["3个月"]}),
    ("项目月度财务那张表是哪位同事经办的？", "人员", "F,E", "WHO[only(F.财务经办人工号)]", "value", {}),
    ("4月餐费一共发了多少？", "金额", "A", A4 + ".餐费.sum()", "value", {}),
    ("2月值班费一共发了多少？", "金额", "A", A2 + ".值班费.sum()  # 保安_领班 and 工程维修, 200 each", "value", {}),
    ("陶明亮4月税后工资多少？", "金额", "A", A4 + ".loc[" + A4 + ".姓名=='陶明亮','税后工资'].iloc[0]", "value", {}),
    ("戚佳怡1到4月加班超时费一共拿了多少？", "金额", "A", "A.loc[A.姓名=='戚佳怡','加班超时费'].sum()  # 90 + 90 + 0 + 180", "value", {"accept": ["360元"]}),
    ("在职员工按今天算，平均年龄多少岁？", "数量", "E", "E.loc[" + ZAIZHI + ",'出生日期'].map(lambda b: age_on(b, '2026-05-01')).mean()  # 33 people, full years on 2026-05-01", "value", {"accept": ["40.4"]}),
    ("90后的员工有几个？", "数量", "E", "E.出生日期.str.startswith('199').sum()  # born 1990-1999 (严玉梅, the one who left, is 1976)", "value", {"accept": ["9人", "9个", "9位"]}),
    ("职级是M3的是哪几位？", "列表", "E", "E.loc[E.职级=='M3','姓名'].tolist()", "all", {}),
    ("13936179178这个手机号是谁的？", "人员", "E", "single(E.loc[E.联系电话=='13936179178','姓名'])", "value", {}),
    ("有消防设施操作员证的是哪几位？", "列表", "Q", "Q.loc[Q.证书名称=='消防设施操作员（四级）','姓名'].tolist()", "all", {}),
    ("特种作业类的证书一共有几本？", "数量", "Q", "(Q.证书类别=='特种作业').sum()  # 高压电工作业", "value", {"accept": ["4本"]}),
    ("持保安员证的人里，哪位是徐汇管理处的？", "人员", "Q,E", "single([WHO[w] for w in Q.loc[Q.证书名称=='保安员（三级）','工号'] if " + ORG + "[w]=='申勤物业徐汇管理处'])", "value", {}),
    ("工程维修岗里哪几位没有消防证？", "列表", "E,Q", "E.loc[(E.岗位名称=='工程维修')&~E.工号.isin(Q.loc[Q.专业类别=='消防','工号']),'姓名'].tolist()  # only 华国栋 holds 消防设施操作员", "all", {}),
    ("海康威视的监控主机一共几台？原值合计多少？", "数量", "D", "(lambda d: (len(d), d.原值.sum()))(D.loc[D.制造厂商=='海康威视'])", "value",
     {"expected": "3台，原值合计84000元", "all_of": ["3", "84000|8.4万"], "check": (3, 84000)}),
    ("启用日期在2023年及以后的设备有哪几台？", "条件", "D", "D.loc[D.启用日期>='2023-01-01','设备编号'].tolist()  # both 2023-03-01", "all",
     {"all_of": ["SB-0105-005|柴油发电机", "SB-0105-007|2号消防水泵"]}),
    ("维保合同一共签了多少钱？", "金额", "C", "C.loc[C.记录类型=='维保合同','金额'].sum()  # 48000 + 36000 + 65000 + 24000", "value", {"accept": ["17.3万"]}),
    ("中央空调维保合同是哪天签的？", "日期", "C", "single(C.loc[C.名称=='中央空调维保','日期'])", "value", {"accept": ["2月15日"]}),
    ("耗材里面单价最贵的是哪样？", "其他", "C", "one(C.loc[C.记录类型=='耗材采购'].set_index('名称').单价)  # 保洁推车 480; next 对讲机电池 65", "value", {}),
    ("垃圾袋买了多少个？单价多少？", "数量", "C", "(lambda r: (r.数量, r.单价))(single(C.loc[C.名称=='垃圾袋（大号）'].itertuples()))", "value",
     {"expected": "400个，单价1.2元", "all_of": ["400", "1.2"], "check": (400, 1.2)}),
    ("1月份买了哪些耗材？", "列表", "C", "C.loc[(C.记录类型=='耗材采购')&C.日期.str.startswith('2026-01'),'名称'].tolist()", "all", {}),
    ("投标没中的是哪个项目？当时报了多少钱？", "金额", "T,P", "(lambda r: (NAME[r.项目编号], r.投标金额))(single(T.loc[T.中标结果=='未中标'].itertuples()))", "value",
     {"expected": "青浦-老城厢停车场，报价950000元（95万）", "all_of": ["老城厢停车场|XMSQ0099", "950000|95万"], "check": ("青浦-老城厢停车场", 950000)}),
    ("2025年中标的那几个标，投标金额加起来多少？", "金额", "T", "T.loc[(T.年份=='2025')&(T.中标结果=='中标'),'投标金额'].sum()  # 北斗园区, 赵巷镇政府, 科创大厦, 人民医院", "value", {"accept": ["2233万"]}),
    ("王志强经办过几次投标？中了几次？", "数量", "T", "(lambda t: (len(t), (t.中标结果=='中标').sum()))(T.loc[T.投标经办人工号==JOB['王志强']])  # 夏阳, 人民医院", "value",
     {"expected": "经办2次，2次都中标", "all_of": ["2"], "check": (2, 2)}),
    ("哪些项目的保洁岗一个人都没到岗？", "列表", "G,P", "[NAME[p] for p in G.loc[(G.岗位=='保洁员')&(G.在岗人数==0),'项目编号']]", "all",
     {"all_of": ["赵巷镇政府|XMSQ0131", "工业园区|XMSQ0105", "环境监测中心|XMSQ0110", "科创大厦|XMSQ0112", "滨江公园|XMSQ0120", "夏阳|XMSQ0125"]}),
    ("3月全公司病假一共几天？", "数量", "A", "cnt(" + A3 + ",'病').sum()  # 华国栋 3月8日", "value", {"accept": ["1天"]}),
    ("4月都有谁休了年假？", "列表", "A", A4 + ".loc[cnt(" + A4 + ",'年')>0,'姓名'].tolist()", "all", {}),
    ("女员工里4月到手最高的是谁？", "人员", "A,E", "WHO[" + A4 + ".loc[one(" + A4 + ".loc[" + A4 + ".工号.isin(E.loc[E.性别=='女','工号']),'税后工资'])].工号]  # 张丽娟 10650.59, 陈慧敏 9721.63", "value", {}),
    ("人民医院那次投标的文件放在哪个路径？", "其他", "T", "single(T.loc[T.项目编号=='XMSQ0118','文档路径'])", "value", {}),
    ("周建国4月个税扣了多少？", "金额", "A", "None  # 税后工资 only; no tax column", NONE, {}),
    ("4月全公司公积金一共缴了多少？", "金额", "A", "None  # no 公积金 / 社保 items", NONE, {}),
    ("保洁推车的保修期是多久？", "其他", "C", "None  # no warranty field", NONE, {}),
    ("上海迅达电梯的开户行和账号是多少？", "其他", "C", "None  # no supplier bank details", NONE, {}),
    ("金建平的高压电工证哪年要复审？", "日期", "Q", "None  # 人员证书 has no issue / review dates", NONE, {}),
    ("何宇航1月的餐费是多少？", "金额", "A", "None  # 何宇航 joined 2026-02-02; no 2026-01 考勤 row", NONE, {}),
    ("去年全年一共开了多少票？", "金额", "F", "None  # 去年 = 2025; 项目月度财务 only 2026-01..04", NONE, {}),
    ("人民医院那次投标技术分拿了多少？", "数量", "T", "None  # 投标记录 holds no scores", NONE, {}),
]

B60 = [
    ("在服项目的年化合同额，青浦区和徐汇区各是多少？", "分组", "P", "P.loc[" + SVC + "].groupby('市区').年化合同额.sum().to_dict()", "group",
     {"all_of": ["13170000|1317万", "4530000|453万", "青浦", "徐汇"]}),
    ("年化合同额排第二的在服项目是哪个？", "项目", "P", "NAME[second(P.loc[" + SVC + "].set_index('项目编号').年化合同额)]  # 人民医院 3200000, 文体中心 2400000, 工业园区 2150000", "value",
     {"all_of": ["文体中心|XMSQ0100"]}),
    ("人民医院1到4月的开票占全公司开票的百分之几？", "比例", "F", "F.loc[F.项目编号=='XMSQ0118','开票金额'].sum()/F.开票金额.sum()", "value", {"pct": True}),
    ("3月和4月比，全公司哪个月开票多？多多少？", "比较", "F", CMP + "(F.loc[F.年月.isin(['2026-03','2026-04'])].groupby('年月').开票金额.sum())  # 1475861.76 vs 1473546.25", "value",
     {"expected": "3月多，多2315.51元", "all_of": ["3月|2026-03", "2315.51"]}),
    ("工业园区跟北斗园区，年化合同额谁高？高多少？", "比较", "P", CMP + "(P.loc[P.项目编号.isin(['XMSQ0105','XMSQ0152'])].set_index('项目名称').年化合同额)  # the 服务中 北斗园区 (XMSQ0152)", "value",
     {"expected": "工业园区高，高470000元（47万）", "all_of": ["工业园区", "470000|47万"]}),
    ("两个管理处现在在职的各有多少人？", "分组", "E", "E.loc[" + ZAIZHI + "].groupby('组织名称').size().to_dict()", "group",
     {"all_of": ["23", "10", "青浦管理处|青浦", "徐汇管理处|徐汇"]}),
    ("哪个项目经理名下在服项目的平均满意度最高？", "人员", "P", "one(P.loc[" + SVC + "].groupby('项目负责人').客户满意度.mean())  # 王志强 94.0, 张丽娟 92.95", "value", {}),
    ("毛利率最低的在服项目，1到4月一共开了多少票？", "金额", "P,F", "F.loc[F.项目编号==P.loc[one(P.loc[" + SVC + ",'实际毛利率'], top=False)].项目编号,'开票金额'].sum()  # 滨江公园 0.083", "value", {}),
    ("中标金额第二高的那个标是哪个项目？当时谁经办的？", "项目", "T,P", "(lambda r: (NAME[r.项目编号], WHO[r.投标经办人工号]))(T.loc[second(T.loc[T.中标结果=='中标','投标金额'])])  # 9600000, 5850000, 5040000", "value",
     {"expected": "徐汇-科创大厦（5850000元），经办人李晓峰", "all_of": ["科创大厦|XMSQ0112", "李晓峰"], "check": ("徐汇-科创大厦", "李晓峰")}),
    ("按项目经理算，谁负责的项目设备原值合计最多？", "人员", "D,P", "one(D.groupby(D.项目编号.map(dict(zip(P.项目编号,P.项目负责人)))).原值.sum())  # 王志强 (工业园区 + 人民医院)", "value", {}),
    ("4月两个管理处的加班超时费各是多少？", "分组", "A,E", A4 + ".groupby(" + A4 + ".工号.map(" + ORG + ")).加班超时费.sum().to_dict()", "group",
     {"all_of": ["3060", "1080", "青浦管理处|青浦", "徐汇管理处|徐汇"]}),
    ("4月全公司人均到手工资多少？", "金额", "A", A4 + ".税后工资.mean()  # 31 rows", "value", {}),
    ("科创大厦1到4月的税后工资合计，占它开票的百分之几？", "比例", "A,F", "A.loc[A.项目编号=='XMSQ0112','税后工资'].sum()/F.loc[F.项目编号=='XMSQ0112','开票金额'].sum()", "value", {"pct": True}),
    ("在服项目里，园区类和公建类的平均毛利率差几个百分点？", "比较", "P", CMP + "(P.loc[" + SVC + "&P.汇总业态.isin(['园区','公建'])].groupby('汇总业态').实际毛利率.mean()*100)", "value",
     {"expected": "园区类高，平均毛利率高约4.56个百分点（20.15%对15.59%）", "all_of": ["园区", "4.56"]}),
    ("设备最多的那个项目，检查平均分多少？", "数量", "D,K", "K.loc[K.项目编号==one(D.groupby('项目编号').size()),'检查得分'].mean()  # 工业园区 8 devices; 95, 81", "value", {"accept": ["88分"]}),
    ("客户满意度不到90分的在服项目，投诉一共几次？", "条件", "P", "P.loc[" + SVC + "&(P.客户满意度<90),'客户投诉'].sum()", "value", {}),
    ("徐汇片区的项目一季度一共回款多少？", "金额", "ZP,Z,F", "F.loc[F.年月.isin(" + Q1 + ")&F.项目编号.isin(ZP.loc[ZP.片区编号==Z.loc[Z.片区名称=='徐汇片区','片区编号'].iloc[0],'项目编号']),'收款金额'].sum()  # 科创大厦 counted (it is also in PQ01); 文化馆 has no rows", "value", {}),
    ("1到4月里哪个月全公司回款率最低？", "日期", "F", "one(F.groupby('年月').apply(" + RATE + "), top=False)", "value", {}),
    ("4月开票比3月涨得最多的是哪个项目？涨了多少？", "项目", "F,P", "(lambda s: (NAME[one(s)], s.max()))(F.loc[F.年月.isin(['2026-03','2026-04'])].pivot(index='项目编号', columns='年月', values='开票金额').pipe(lambda d: d['2026-04']-d['2026-03']))", "value",
     {"expected": "青浦-人民医院，4月比3月多开23705.33元（255151.16→278856.49）", "all_of": ["人民医院|XMSQ0118", "23705.33"], "check": ("青浦-人民医院", 23705.33)}),
    ("4月保安里，领班和普保人均到手差多少？", "比较", "A,E", CMP + "(" + A4 + ".loc[" + A4 + ".工号.isin(E.loc[" + BAOAN + ",'工号'])].groupby(" + A4 + ".工号.map(" + POST + ")).税后工资.mean())", "value",
     {"expected": "保安_领班人均高，高1252.88元", "all_of": ["保安_领班|领班", "1252.88"]}),
    ("北斗园区续签以后，年化合同额涨了多少？", "金额", "P", "(lambda r: r.年化合同额-P.loc[P.项目编号==r.续签前项目编号,'年化合同额'].iloc[0])(P.loc[P.项目编号=='XMSQ0152'].iloc[0])  # 1560000 -> 1680000", "value",
     {"accept": ["12万"]}),
    ("在服项目里哪个合同最先到期？项目经理是谁？", "人员", "P", "(lambda r: (r.项目名称, r.结束日期, r.项目负责人))(P.loc[one(DT(P.loc[" + SVC + ",'结束日期']), top=False)])  # next 2026-12-31", "value",
     {"expected": "徐汇-区档案馆（2026-08-31到期），项目经理张丽娟", "all_of": ["区档案馆|XMSQ0115", "张丽娟"], "check": ("徐汇-区档案馆", "2026-08-31", "张丽娟")}),
    ("4月工程维修的人均到手比客服高多少？", "比较", "A,E", CMP + "(" + A4 + ".loc[" + A4 + ".工号.isin(E.loc[E.岗位名称.isin(['工程维修','客服']),'工号'])].groupby(" + A4 + ".工号.map(" + POST + ")).税后工资.mean())", "value",
     {"expected": "工程维修人均高，高1308.81元", "all_of": ["工程维修", "1308.81"]}),
    ("一季度全公司平均每个月开票多少？", "金额", "F", "F.loc[F.年月.isin(" + Q1 + "),'开票金额'].sum()/3", "value", {}),
    ("4月科创大厦和人民医院，回款率哪个高？高几个百分点？", "比较", "F", CMP + "(" + F4 + ".loc[" + F4 + ".项目编号.isin(['XMSQ0112','XMSQ0118'])].groupby(" + F4 + ".项目编号.map(NAME)).apply(" + RATE + ")*100)", "value",
     {"expected": "科创大厦高（100%对80%），高20个百分点", "all_of": ["科创大厦", "20"]}),
    ("项目经理里谁名下在服项目的合同面积加起来最大？", "人员", "P", "one(P.loc[" + SVC + "].groupby('项目负责人').合同面积.sum())  # 张丽娟 159000, 王志强 158000", "value", {}),
    ("公建类在服项目的年化合同额占全部在服项目的百分之几？", "比例", "P", "P.loc[" + SVC + "&(P.汇总业态=='公建'),'年化合同额'].sum()/P.loc[" + SVC + ",'年化合同额'].sum()", "value", {"pct": True}),
    ("2月哪个项目的人到手工资合计最多？", "项目", "A,P", "NAME[one(" + A2 + ".groupby('项目编号').税后工资.sum())]  # 26715.68; 工业园区 24352.26", "value", {"all_of": ["区图书馆|XMSQ0102"]}),
    ("两位片区负责人，4月税后工资谁高？高多少？", "比较", "Z,A", CMP + "(" + A4 + ".loc[" + A4 + ".工号.isin(Z.片区负责人工号)].set_index('姓名').税后工资)  # 周建国 10633.46, 李晓峰 10214.58", "value",
     {"expected": "周建国高，高418.88元", "all_of": ["周建国", "418.88"]}),
    ("有证书的人1到4月加班小时合计，占全公司加班小时的百分之几？", "比例", "Q,A", "A.loc[A.工号.isin(Q.工号),'加班小时'].sum()/A.加班小时.sum()", "value", {"pct": True}),
    ("今年新开的在服项目，1到4月一共开了多少票？", "金额", "P,F", "F.loc[F.项目编号.isin(P.loc[" + SVC + "&P.开始日期.str.startswith('2026'),'项目编号']),'开票金额'].sum()  # 北斗园区 XMSQ0152 (2026-01-01), 夏阳 XMSQ0125 (2026-03-01); 文化馆 未开始", "value", {}),
    ("青浦区的在服项目，1到4月平均每个项目收款多少？", "金额", "P,F", "F.loc[F.项目编号.isin(P.loc[" + SVC + "&(P.市区=='青浦区'),'项目编号'])].groupby('项目编号').收款金额.sum().mean()  # 8 projects (夏阳 2 months)", "value", {"accept": ["51.04万"]}),
    ("照现在的势头，明年全年开票能做到多少？", "金额", "F", "None  # a forecast; the data holds 2026-01..04 actuals only", NONE, {}),
    ("几个项目经理里谁的管理能力最强？", "人员", "-", "None  # an opinion; no performance appraisal data", NONE, {}),
    ("同行业医院项目的平均毛利率大概是多少？", "比例", "-", "None  # external benchmark; 实际毛利率 is ours only", NONE, {}),
    ("今年5月全公司开票多少？", "金额", "F", "None  # 2026-05 not in 项目月度财务 (2026-01..04)", NONE, {}),
    ("各项目的管理费用率分别是多少？", "比例", "-", "None  # no cost breakdown", NONE, {}),
    ("嘉定片区的负责人是谁？", "人员", "Z", "None  # 片区信息 holds only 青浦片区, 徐汇片区", NONE, {}),
    ("人民医院项目一年净利润多少？", "金额", "P", "None  # 实际毛利率 only; no net profit", NONE, {}),
    ("哪个项目的甲方续约意向最强？", "项目", "P", "None  # no renewal-intent data", NONE, {}),
]


def probe(batches) -> None:
    """Print every computed value of ``batches`` (writer-side, to fill in the hand-written golds;
    an expression that fails prints its error)."""
    for n, b in batches:
        for i, (q, kind, frames, expr, how, extra) in enumerate(b, 1):
            try:
                v = None if how == NONE else eval(expr.split("  #")[0], base.NS)  # noqa: S307
            except Exception as exc:  # noqa: BLE001 - writer-side probe
                v = f"ERROR {exc!r}"
            print(f"kg{n}-{i:02d}", q, "=>", v)


def main(batches) -> None:
    """``--probe``: print the computed values; else check the groups, verify and write the batches
    (also the entry point of the later rounds' gold scripts)."""
    if "--probe" in sys.argv:
        probe(batches)
        return
    for _n, _b in batches:
        p34._check_groups(_b)
    base.write_batches([(n, p40._prep(p55._verify(b))) for n, b in batches], refusals=8)


BATCHES = [(58, B58), (59, B59), (60, B60)]

if __name__ == "__main__":
    main(BATCHES)
