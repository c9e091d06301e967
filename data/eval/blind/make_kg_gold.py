"""Computes the gold answers of the blind KG batches with pandas, straight from the sample
spreadsheets (data/samples/business/*.xlsx), independently of the engine, and writes
kg_batch_{1,2,3}.jsonl next to this file.

Each question carries the pandas expression that computed its answer ("source"); the frames are
P 项目信息, E 人员信息 (a+b), S 人员服务期, Z 片区信息, ZP 项目片区关系, F 项目月度财务,
A 考勤与人员财务 (all months), B 排班月报, T 投标记录, G 岗位编制, D 设备信息, C 采购与维保,
K 检查记录, Q 人员证书. `cnt(row, code)` counts a day code (夜, 早, 白, 全, 晚 …) in a row of A or B.
Questions with expected null are not answerable from the spreadsheets (should be refused).

    .venv/bin/python data/eval/blind/make_kg_gold.py
"""
from __future__ import annotations

import glob
import json
import os

import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
BIZ = os.path.join(ROOT, "data", "samples", "business")


def _read(name: str) -> pd.DataFrame:
    frames = [pd.read_excel(f, sheet_name="数据", dtype=str) for f in sorted(glob.glob(os.path.join(BIZ, name)))]
    df = pd.concat(frames, ignore_index=True)
    for c in df.columns:
        conv = pd.to_numeric(df[c], errors="coerce")
        if conv.notna().sum() == df[c].notna().sum() and df[c].notna().any() and c not in ("工号", "联系电话", "身份证号码", "年份"):
            df[c] = conv
    return df


P = _read("01_*.xlsx"); E = _read("02_*.xlsx"); S = _read("03_*.xlsx"); Z = _read("04_*.xlsx")
ZP = _read("05_*.xlsx"); F = _read("06_*.xlsx"); A = _read("07_*.xlsx"); B = _read("08_*.xlsx")
T = _read("09_*.xlsx"); G = _read("10_*.xlsx"); D = _read("11_*.xlsx"); C = _read("12_*.xlsx")
K = _read("13_*.xlsx"); Q = _read("14_*.xlsx")
DAYS = [f"{i}日" for i in range(1, 32)]
NAME = dict(zip(P["项目编号"], P["项目名称"]))


def cnt(df: pd.DataFrame, code: str) -> pd.Series:
    return (df[DAYS] == code).sum(axis=1)


def pid(name: str) -> str:
    return P.loc[P["项目名称"] == name, "项目编号"].iloc[0]


NS = dict(P=P, E=E, S=S, Z=Z, ZP=ZP, F=F, A=A, B=B, T=T, G=G, D=D, C=C, K=K, Q=Q, cnt=cnt, pid=pid, NAME=NAME, pd=pd)

FILES = {"P": "01_项目信息.xlsx", "E": "02_人员信息_a/b.xlsx", "S": "03_人员服务期.xlsx", "Z": "04_片区信息.xlsx",
         "ZP": "05_项目片区关系.xlsx", "F": "06_项目月度财务.xlsx", "A": "07_考勤与人员财务_2026-0[1-4].xlsx",
         "B": "08_排班月报.xlsx", "T": "09_投标记录.xlsx", "G": "10_岗位编制.xlsx", "D": "11_设备信息.xlsx",
         "C": "12_采购与维保.xlsx", "K": "13_检查记录.xlsx", "Q": "14_人员证书.xlsx"}


def fmt(v) -> str:
    if isinstance(v, float):
        v = round(v, 2)
        return str(int(v)) if v == int(v) else f"{v:.2f}".rstrip("0").rstrip(".")
    if hasattr(v, "item"):
        return fmt(v.item())
    return str(v)


# (question, kind, frames, expression, how: "value" | "all" | "count", extra dict)
# "value": the expression gives one value (the gold). "all": a list, every item must be named.
# extra may carry "accept" (alternative strings), "all_of" override (items "a|b" = either), "expected" override.
B1 = [
    ("青浦-文体中心的合同金额是多少？", "金额", "P", "P.loc[P.项目名称=='青浦-文体中心','合同金额'].iloc[0]", "value", {"accept": ["720万"]}),
    ("徐汇-科创大厦的项目负责人是谁？", "人员", "P", "P.loc[P.项目名称=='徐汇-科创大厦','项目负责人'].iloc[0]", "value", {}),
    ("周建国的工号是多少？", "编号", "E", "E.loc[E.姓名=='周建国','工号'].iloc[0]", "value", {}),
    ("陈慧敏目前负责哪些服务中的项目？", "列表", "P", "P.loc[(P.项目负责人=='陈慧敏')&(P.服务状态=='服务中'),'项目名称'].tolist()", "all", {"all_of": ["北斗园区|XMSQ0152", "赵巷镇政府|XMSQ0131"]}),
    ("项目信息表里一共有多少个项目？", "数量", "P", "len(P)", "value", {"accept": ["16个"]}),
    ("目前服务中的项目有几个？", "数量", "P", "(P.服务状态=='服务中').sum()", "value", {}),
    ("青浦片区的负责人是谁？", "人员", "Z,E", "E.set_index('工号').姓名[Z.loc[Z.片区名称=='青浦片区','片区负责人工号'].iloc[0]]", "value", {}),
    ("徐汇片区包含哪些项目？", "列表", "ZP,P", "[NAME[p] for p in ZP.loc[ZP.片区编号=='PQ02','项目编号']]", "all", {"all_of": ["环境监测中心|XMSQ0110", "科创大厦|XMSQ0112", "区档案馆|XMSQ0115", "滨江公园|XMSQ0120", "文化馆|XMSQ0130"]}),
    ("2026年1月所有项目的开票金额合计是多少？", "金额", "F", "F.loc[F.年月=='2026-01','开票金额'].sum()", "value", {}),
    ("青浦-人民医院2026年1到4月累计收款多少？", "金额", "F,P", "F.loc[(F.项目编号==pid('青浦-人民医院'))&F.年月.between('2026-01','2026-04'),'收款金额'].sum()", "value", {}),
    ("2026年3月开票金额最高的是哪个项目？", "项目", "F,P", "NAME[F.loc[F.年月=='2026-03'].sort_values('开票金额').iloc[-1].项目编号]", "value", {"accept": ["XMSQ0118"]}),
    ("合同金额排名前三的项目是哪几个？", "列表", "P", "P.nlargest(3,'合同金额').项目名称.tolist()", "all", {"all_of": ["人民医院|XMSQ0118", "文体中心|XMSQ0100", "工业园区|XMSQ0105"]}),
    ("刘德明2026年3月加班了多少小时？", "数量", "A", "A.loc[(A.姓名=='刘德明')&(A.年月=='2026-03'),'加班小时'].iloc[0]", "value", {}),
    ("2026年2月税后工资最高的员工是谁？", "人员", "A", "A.loc[A.年月=='2026-02'].sort_values('税后工资').iloc[-1].姓名", "value", {}),
    ("杨振华2026年2月上了几天班？", "数量", "A", "A.loc[(A.姓名=='杨振华')&(A.年月=='2026-02'),'上班天数'].iloc[0]", "value", {}),
    ("华国栋负责多少台设备？", "数量", "D,E", "(D.设备责任人工号==E.loc[E.姓名=='华国栋','工号'].iloc[0]).sum()", "value", {}),
    ("哪些设备处于待修状态？", "列表", "D", "D.loc[D.完好状况=='待修','设备编号'].tolist()", "all", {"all_of": ["SB-0105-003|工业园区", "SB-0110-002|环境监测中心"]}),
    ("青浦-工业园区有几台电梯？", "数量", "D", "((D.项目编号==pid('青浦-工业园区'))&(D.设备类型=='电梯')).sum()", "value", {}),
    ("徐汇-环境监测中心的设备原值合计多少？", "金额", "D", "D.loc[D.项目编号==pid('徐汇-环境监测中心'),'原值'].sum()", "value", {}),
    ("2025年中标的投标有几条？", "数量", "T", "((T.年份=='2025')&(T.中标结果=='中标')).sum()", "value", {}),
    ("徐汇-文化馆的投标结果是什么？", "状态", "T", "T.loc[T.项目编号==pid('徐汇-文化馆'),'中标结果'].iloc[0]", "value", {}),
    ("北斗园区2025年续标的投标金额是多少？", "金额", "T", "T.loc[(T.项目编号=='XMSQ0152')&(T.投标类型=='续标'),'投标金额'].iloc[0]", "value", {"accept": ["504万"]}),
    ("哪些人持有高压电工作业证书？", "列表", "Q", "Q.loc[Q.证书名称=='高压电工作业','姓名'].tolist()", "all", {}),
    ("刘德明有哪些证书？", "列表", "Q", "Q.loc[Q.姓名=='刘德明','证书名称'].tolist()", "all", {"all_of": ["保安员", "消防设施操作员"]}),
    ("青浦-区图书馆保洁员的预算编制是几个人？", "数量", "G", "G.loc[(G.项目编号==pid('青浦-区图书馆'))&(G.岗位=='保洁员'),'预算编制'].iloc[0]", "value", {}),
    ("青浦-夏阳街道社区中心现在在岗人数一共多少？", "数量", "G", "G.loc[G.项目编号==pid('青浦-夏阳街道社区中心'),'在岗人数'].sum()", "value", {}),
    ("青浦-工业园区2026年2月的消防安全检查得了多少分？", "数量", "K", "K.loc[(K.项目编号==pid('青浦-工业园区'))&(K.检查类型=='消防安全检查'),'检查得分'].iloc[0]", "value", {}),
    ("检查得分低于82分的检查记录有几条？", "数量", "K", "(K.检查得分<82).sum()", "value", {}),
    ("2026年1月签订维保合同的是哪些项目？", "列表", "C,P", "[NAME[p] for p in C.loc[(C.记录类型=='维保合同')&C.日期.str.startswith('2026-01'),'项目编号']]", "all", {"all_of": ["工业园区|XMSQ0105", "区图书馆|XMSQ0102"]}),
    ("上海迅达电梯有限公司签了几份维保合同？", "数量", "C", "((C.记录类型=='维保合同')&(C.供应商名称=='上海迅达电梯有限公司')).sum()", "value", {}),
    ("严玉梅是哪天离职的？", "日期", "E", "E.loc[E.姓名=='严玉梅','离职日期'].iloc[0]", "value", {}),
    ("郑晓东2026年1月到2月在哪个项目服务？", "项目", "S,E", "NAME[S.loc[(S.工号==E.loc[E.姓名=='郑晓东','工号'].iloc[0])&(S.开始年月=='2026-01'),'项目编号'].iloc[0]]", "value", {"accept": ["XMSQ0131"]}),
    ("周建国的学历是什么？", "其他", "E", "None  # 人员信息 has no 学历 column", "none", {}),
    ("青浦-文体中心的物业费单价是多少？", "金额", "P", "None  # no 单价/物业费 column", "none", {}),
    ("2025年12月各项目的开票金额是多少？", "金额", "F", "None  # F.年月 only 2026-01..2026-04", "none", {}),
    ("李晓峰的年终奖是多少？", "金额", "A", "None  # no 年终奖", "none", {}),
    ("徐汇-科创大厦有多少个停车位？", "数量", "P", "None  # no 停车位", "none", {}),
    ("刘德明2026年5月的排班是怎样的？", "其他", "B", "None  # B.年月 only 2026-01..04", "none", {}),
    ("北京片区有哪些项目？", "列表", "Z", "None  # only 青浦片区, 徐汇片区", "none", {}),
    ("哪个项目的用电量最高？", "项目", "-", "None  # no 用电量", "none", {}),
]

B2 = [
    ("青浦-人民医院的甲方是谁？", "单位", "P", "P.loc[P.项目名称=='青浦-人民医院','甲方名称'].iloc[0]", "value", {}),
    ("徐汇-滨江公园的合同面积是多少？", "数量", "P", "P.loc[P.项目名称=='徐汇-滨江公园','合同面积'].iloc[0]", "value", {"accept": ["15万"]}),
    ("赵巷镇政府XMSQ0131项目的合同起止日期是什么？", "日期", "P", "P.loc[P.项目编号=='XMSQ0131',['开始日期','结束日期']].iloc[0].tolist()", "all", {}),
    ("徐汇片区有多少个项目？", "数量", "ZP", "(ZP.片区编号=='PQ02').sum()", "value", {}),
    ("按汇总业态统计各有多少个项目？", "分组", "P", "P.groupby('汇总业态').size().to_dict()", "group", {}),
    ("服务中项目的年化合同额合计是多少？", "金额", "P", "P.loc[P.服务状态=='服务中','年化合同额'].sum()", "value", {}),
    ("2026年2月各项目收款金额合计多少？", "金额", "F", "F.loc[F.年月=='2026-02','收款金额'].sum()", "value", {}),
    ("2026年1到4月累计开票金额最高的项目是哪个？", "项目", "F,P", "NAME[F.groupby('项目编号').开票金额.sum().idxmax()]", "value", {"accept": ["XMSQ0118"]}),
    ("赵巷镇政府XMSQ0131项目2026年4月开票和收款差了多少？", "金额", "F", "(lambda r: r.开票金额-r.收款金额)(F.loc[(F.项目编号=='XMSQ0131')&(F.年月=='2026-04')].iloc[0])", "value", {}),
    ("2026年3月收款金额少于开票金额的项目有哪些？", "列表", "F,P", "[NAME[p] for p in F.loc[(F.年月=='2026-03')&(F.收款金额<F.开票金额),'项目编号']]", "all", {"all_of": ["赵巷镇政府|XMSQ0131", "工业园区|XMSQ0105", "环境监测中心|XMSQ0110", "科创大厦|XMSQ0112", "区档案馆|XMSQ0115", "夏阳|XMSQ0125"]}),
    ("2026年1月加班小时最多的员工是谁？", "人员", "A", "A.loc[(A.年月=='2026-01')&(A.加班小时==A.loc[A.年月=='2026-01','加班小时'].max()),'姓名'].tolist()", "all", {}),
    ("青浦-区图书馆2026年3月员工税后工资合计多少？", "金额", "A", "A.loc[(A.项目编号==pid('青浦-区图书馆'))&(A.年月=='2026-03'),'税后工资'].sum()", "value", {}),
    ("2026年有旷工扣款的员工有哪些？", "列表", "A", "A.loc[A.备注=='旷工扣款','姓名'].tolist()", "all", {}),
    ("陶明亮2026年1到4月税后工资合计多少？", "金额", "A", "A.loc[A.姓名=='陶明亮','税后工资'].sum()", "value", {}),
    ("姜雨婷2026年1月排了几个晚班？", "数量", "B", "cnt(B.loc[(B.姓名=='姜雨婷')&(B.年月=='2026-01')],'晚').iloc[0]", "value", {}),
    ("华国栋2026年3月有几个全天班？", "数量", "B", "cnt(B.loc[(B.姓名=='华国栋')&(B.年月=='2026-03')],'全').iloc[0]", "value", {}),
    ("青浦-工业园区有哪些类型的设备？", "列表", "D", "D.loc[D.项目编号==pid('青浦-工业园区'),'设备类型'].unique().tolist()", "all", {}),
    ("奥的斯的设备一共有几台？", "数量", "D", "(D.制造厂商=='奥的斯').sum()", "value", {}),
    ("出厂日期最早的设备是哪一台？", "设备", "D", "D.sort_values('出厂日期').iloc[0].设备编号", "value", {"all_of": ["SB-0118-003|人民医院"]}),
    ("哪台设备已经报废了？", "设备", "D", "D.loc[D.完好状况=='报废','设备编号'].iloc[0]", "value", {"accept": ["2号消防水泵"]}),
    ("耗材采购的总金额是多少？", "金额", "C", "C.loc[C.记录类型=='耗材采购','金额'].sum()", "value", {}),
    ("医用级消毒液的采购单价是多少？", "金额", "C", "C.loc[C.名称=='医用级消毒液','单价'].iloc[0]", "value", {}),
    ("采购专员是谁？", "人员", "E", "E.loc[E.岗位名称=='采购专员','姓名'].iloc[0]", "value", {}),
    ("证书类别为职业资格的证书有几条记录？", "数量", "Q", "(Q.证书类别=='职业资格').sum()", "value", {}),
    ("王志强负责哪些项目？", "列表", "P", "P.loc[P.项目负责人=='王志强','项目名称'].tolist()", "all", {"all_of": ["工业园区|XMSQ0105", "人民医院|XMSQ0118", "夏阳|XMSQ0125"]}),
    ("张丽娟负责的项目合同金额合计是多少？", "金额", "P", "P.loc[P.项目负责人=='张丽娟','合同金额'].sum()", "value", {"accept": ["571万"]}),
    ("XMSQ0152的续签前项目编号是什么？", "编号", "P", "P.loc[P.项目编号=='XMSQ0152','续签前项目编号'].iloc[0]", "value", {}),
    ("客户满意度最高的项目是哪个？", "项目", "P", "P.sort_values('客户满意度').dropna(subset=['客户满意度']).iloc[-1].项目名称", "value", {"accept": ["XMSQ0118"]}),
    ("实际毛利率低于10%的项目有哪些？", "列表", "P", "P.loc[P.实际毛利率<0.10,'项目名称'].tolist()", "all", {"all_of": ["区档案馆|XMSQ0115", "滨江公园|XMSQ0120"]}),
    ("2026年开始的项目有哪些？", "列表", "P", "P.loc[P.开始日期.str.startswith('2026'),'项目名称'].tolist()", "all", {"all_of": ["北斗园区|XMSQ0152", "夏阳|XMSQ0125", "文化馆|XMSQ0130"]}),
    ("哪些项目已经结束了？", "列表", "P", "P.loc[P.服务状态=='已结束','项目编号'].tolist()", "all", {"all_of": ["XMSQ0052|北斗园区", "XMSQ0031|赵巷镇政府", "XMSQ0099|老城厢停车场"]}),
    ("青浦-工业园区2026年3月的开票金额比2月增加了多少？", "金额", "F", "(lambda f: f.loc['2026-03']-f.loc['2026-02'])(F.loc[F.项目编号==pid('青浦-工业园区')].set_index('年月').开票金额)", "value", {}),
    ("青浦-人民医院有多少张床位？", "数量", "P", "None  # no 床位", "none", {}),
    ("青浦-人民医院2026年6月的开票金额是多少？", "金额", "F", "None  # F.年月 only 2026-01..04", "none", {}),
    ("张丽娟的银行卡号是多少？", "其他", "E", "None  # no 银行卡号", "none", {}),
    ("上海洁美清洁用品有限公司的联系人电话是多少？", "其他", "C", "None  # no 联系人/电话 for suppliers", "none", {}),
    ("哪个员工的绩效考核分最高？", "人员", "-", "None  # no 绩效", "none", {}),
    ("苏州片区的负责人是谁？", "人员", "Z", "None  # no 苏州片区", "none", {}),
    ("2027年中标的项目有哪些？", "列表", "T", "None  # T.年份 2022..2026", "none", {}),
    ("设备的保修期到什么时候？", "日期", "D", "None  # no 保修期", "none", {}),
]

B3 = [
    ("XMSQ0125是哪个项目？", "项目", "P", "NAME['XMSQ0125']", "value", {"accept": ["夏阳街道社区中心", "夏阳社区中心"]}),
    ("徐汇-区档案馆的委托方式是什么？", "类别", "P", "P.loc[P.项目名称=='徐汇-区档案馆','委托方式'].iloc[0]", "value", {}),
    ("计费方式是酬金制的项目有哪些？", "列表", "P", "P.loc[P.计费方式=='酬金制','项目编号'].tolist()", "all", {"all_of": ["XMSQ0052|北斗园区", "XMSQ0152|北斗园区", "XMSQ0105|工业园区"]}),
    ("按项目负责人统计服务中项目的合同金额合计", "分组", "P", "P.loc[P.服务状态=='服务中'].groupby('项目负责人').合同金额.sum().to_dict()", "group", {}),
    ("青浦区有几个项目？", "数量", "P", "(P.市区=='青浦区').sum()", "value", {}),
    ("目前在职（没有离职）的员工有多少人？", "数量", "E", "E.离职日期.isna().sum()", "value", {}),
    ("保安_普保岗位有多少人？", "数量", "E", "(E.岗位名称=='保安_普保').sum()", "value", {}),
    ("员工里有多少中共党员？", "数量", "E", "(E.政治面貌=='中共党员').sum()", "value", {}),
    ("女员工有几个人？", "数量", "E", "(E.性别=='女').sum()", "value", {}),
    ("2025年入职的员工有哪些？", "列表", "E", "E.loc[E.入职日期.str.startswith('2025'),'姓名'].tolist()", "all", {}),
    ("年龄最大的员工是谁？", "人员", "E", "E.sort_values('出生日期').iloc[0].姓名", "value", {}),
    ("2026年4月收款金额排名前三的项目是哪些？", "列表", "F,P", "[NAME[p] for p in F.loc[F.年月=='2026-04'].nlargest(3,'收款金额').项目编号]", "all", {"all_of": ["人民医院|XMSQ0118", "文体中心|XMSQ0100", "工业园区|XMSQ0105"]}),
    ("2026年1到4月所有项目开票金额总计多少？", "金额", "F", "F.loc[F.年月.between('2026-01','2026-04'),'开票金额'].sum()", "value", {}),
    ("徐汇片区的项目2026年1月开票金额合计多少？", "金额", "F,ZP", "F.loc[(F.年月=='2026-01')&F.项目编号.isin(ZP.loc[ZP.片区编号=='PQ02','项目编号']),'开票金额'].sum()", "value", {}),
    ("周建国2026年1月的税后工资是多少？", "金额", "A", "A.loc[(A.姓名=='周建国')&(A.年月=='2026-01'),'税后工资'].iloc[0]", "value", {}),
    ("2026年4月加班超时费合计多少？", "金额", "A", "A.loc[A.年月=='2026-04','加班超时费'].sum()", "value", {}),
    ("2026年1月的国定加班费一共发了多少？", "金额", "A", "A.loc[A.年月=='2026-01','国定加班费'].sum()", "value", {}),
    ("秦家豪2026年1到4月一共上了多少天班？", "数量", "A", "A.loc[A.姓名=='秦家豪','上班天数'].sum()", "value", {}),
    ("2026年3月上班天数最多的员工是谁？", "人员", "A", "A.loc[A.年月=='2026-03'].sort_values('上班天数').iloc[-1].姓名", "value", {}),
    ("冯志远2026年2月排了几个夜班？", "数量", "B", "cnt(B.loc[(B.姓名=='冯志远')&(B.年月=='2026-02')],'夜').iloc[0]", "value", {}),
    ("孙海涛2026年3月上了几个早班？", "数量", "B", "cnt(B.loc[(B.姓名=='孙海涛')&(B.年月=='2026-03')],'早').iloc[0]", "value", {}),
    ("郑晓东2026年3月起调入了哪个项目？", "项目", "S,E", "NAME[S.loc[(S.工号=='KWL2307024')&(S.开始年月=='2026-03'),'项目编号'].iloc[0]]", "value", {"accept": ["XMSQ0152", "北斗园区"]}),
    ("周建国负责青浦-体育馆是从哪个月开始的？", "日期", "S", "S.loc[(S.工号=='KWL1801001')&(S.项目编号==pid('青浦-体育馆')),'开始年月'].iloc[0]", "value", {}),
    ("青浦-人民医院有几台设备？", "数量", "D", "(D.项目编号==pid('青浦-人民医院')).sum()", "value", {}),
    ("所有设备的原值合计是多少？", "金额", "D", "D.原值.sum()", "value", {}),
    ("上海冷暖通设备工程有限公司签的是什么合同，金额多少？", "金额", "C", "C.loc[C.供应商名称=='上海冷暖通设备工程有限公司',['名称','金额']].iloc[0].tolist()", "all", {}),
    ("采购的固定资产有哪些？", "列表", "C", "C.loc[C.记录类型=='固定资产','名称'].tolist()", "all", {}),
    ("2026年4月一共有几条检查记录？", "数量", "K", "K.检查日期.str.startswith('2026-04').sum()", "value", {}),
    ("月度品质检查的平均得分是多少？", "数量", "K", "K.loc[K.检查类型=='月度品质检查','检查得分'].mean()", "value", {}),
    ("哪些项目的检查发现了“监控存储不足 30 天”的问题？", "列表", "K,P", "[NAME[p] for p in K.loc[K.问题描述=='监控存储不足 30 天','项目编号']]", "all", {"all_of": ["区图书馆|XMSQ0102", "赵巷镇政府|XMSQ0131", "科创大厦|XMSQ0112"]}),
    ("北斗园区XMSQ0152的保安_普保缺编几人（项目编制减在岗人数）？", "数量", "G", "(lambda r: r.项目编制-r.在岗人数)(G.loc[(G.项目编号=='XMSQ0152')&(G.岗位=='保安_普保')].iloc[0])", "value", {}),
    ("所有项目的在岗人数合计是多少？", "数量", "G", "G.在岗人数.sum()", "value", {}),
    ("周建国的家庭住址是哪里？", "其他", "E", "None  # no 住址 for people", "none", {}),
    ("2026年1月各项目的水费合计是多少？", "金额", "-", "None  # no 水费", "none", {}),
    ("徐汇-文化馆2026年1月的收款金额是多少？", "金额", "F", "None  # XMSQ0130 has no rows in F (starts 2026-07)", "none", {}),
    ("魏大勇的社保缴纳基数是多少？", "金额", "A", "None  # no 社保", "none", {}),
    ("上海迅达电梯有限公司的注册资本是多少？", "金额", "C", "None  # no 注册资本", "none", {}),
    ("2026年各项目的预算成本是多少？", "金额", "-", "None  # no 成本", "none", {}),
    ("杭州片区有几个项目？", "数量", "Z", "None  # no 杭州片区", "none", {}),
    ("何宇航2026年1月的考勤情况怎么样？", "其他", "A", "None  # 何宇航 joined 2026-02-02, no 2026-01 row", "none", {}),
]


def build(batch: list, n: int) -> list[dict]:
    out = []
    for i, (q, kind, frames, expr, how, extra) in enumerate(batch, 1):
        rec = {"id": f"kg{n}-{i:02d}", "question": q, "expected": None, "kind": kind,
               "source": " + ".join(FILES.get(f, f) for f in frames.split(",")) + " :: " + expr}
        if how != "none":
            v = eval(expr.split("  #")[0], NS)  # noqa: S307 - our own expressions
            if how == "value":
                rec["expected"] = fmt(v)
            elif how == "all":
                items = [fmt(x) for x in v]
                rec["expected"] = "、".join(items)
                rec["all_of"] = items
            elif how == "group":
                rec["expected"] = "；".join(f"{k} {fmt(x)}" for k, x in v.items())
                rec["all_of"] = [fmt(x) for x in v.values()] + list(v.keys())
        rec.update({k: x for k, x in extra.items() if k != "expected"})
        if "expected" in extra:
            rec["expected"] = extra["expected"]
        out.append(rec)
    return out


def write_batches(numbered: list[tuple[int, list]], refusals: int | None = None) -> None:
    """Compute and write ``kg_batch_N.jsonl`` for each (N, batch); print each record's gold."""
    for n, batch in numbered:
        recs = build(batch, n)
        assert len(recs) == 40, (n, len(recs))
        assert refusals is None or sum(r["expected"] is None for r in recs) == refusals, n
        with open(os.path.join(HERE, f"kg_batch_{n}.jsonl"), "w", encoding="utf-8") as fh:
            for r in recs:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        for r in recs:
            print(r["id"], r["question"], "=>", r["expected"], r.get("all_of", ""), r.get("accept", ""))


if __name__ == "__main__":
    write_batches([(1, B1), (2, B2), (3, B3)])
