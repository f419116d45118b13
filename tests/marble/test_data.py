"""판 데이터: 40칸 구성(도시 24, 관광지 4, 카드 7, 특수 5), 가격표 스냅샷 일치 (spec 3.1-3.5)."""

from collections import Counter

from jokeapp.games.marble import data

# spec 3.1, square by square
BOARD_31 = [
    (0, "출발", "start"),
    (1, "타이베이", "city"),
    (2, "행운카드", "card"),
    (3, "마닐라", "city"),
    (4, "하노이", "city"),
    (5, "제주도", "tour"),
    (6, "방콕", "city"),
    (7, "행운카드", "card"),
    (8, "싱가포르", "city"),
    (9, "카이로", "city"),
    (10, "무인도", "island"),
    (11, "이스탄불", "city"),
    (12, "행운카드", "card"),
    (13, "아테네", "city"),
    (14, "로마", "city"),
    (15, "경주", "tour"),
    (16, "코펜하겐", "city"),
    (17, "행운카드", "card"),
    (18, "스톡홀름", "city"),
    (19, "베를린", "city"),
    (20, "사회복지기금 받는 곳", "fundReceive"),
    (21, "부에노스아이레스", "city"),
    (22, "행운카드", "card"),
    (23, "상파울루", "city"),
    (24, "시드니", "city"),
    (25, "우주센터", "tour"),
    (26, "리스본", "city"),
    (27, "마드리드", "city"),
    (28, "행운카드", "card"),
    (29, "파리", "city"),
    (30, "우주여행", "space"),
    (31, "런던", "city"),
    (32, "밴쿠버", "city"),
    (33, "행운카드", "card"),
    (34, "샌프란시스코", "city"),
    (35, "부산", "tour"),
    (36, "뉴욕", "city"),
    (37, "도쿄", "city"),
    (38, "사회복지기금 내는 곳", "fundPay"),
    (39, "서울", "city"),
]

# spec 3.2: pos, group, land, villa, building, hotel, landmark, tolls (land, villa, building, hotel, landmark)
PRICES_32 = [
    (1, "A", 6, 3, 6, 9, 12, 1, 4, 9, 15, 24),
    (3, "A", 6, 3, 6, 9, 12, 1, 4, 9, 15, 24),
    (4, "A", 8, 4, 8, 12, 16, 2, 5, 12, 20, 32),
    (6, "B", 10, 5, 10, 15, 20, 2, 6, 15, 25, 40),
    (8, "B", 10, 5, 10, 15, 20, 2, 6, 15, 25, 40),
    (9, "B", 12, 6, 12, 18, 24, 2, 7, 18, 30, 48),
    (11, "C", 14, 7, 14, 21, 28, 3, 8, 21, 35, 56),
    (13, "C", 14, 7, 14, 21, 28, 3, 8, 21, 35, 56),
    (14, "C", 16, 8, 16, 24, 32, 3, 10, 24, 40, 64),
    (16, "D", 18, 9, 18, 27, 36, 4, 11, 27, 45, 72),
    (18, "D", 18, 9, 18, 27, 36, 4, 11, 27, 45, 72),
    (19, "D", 20, 10, 20, 30, 40, 4, 12, 30, 50, 80),
    (21, "E", 22, 11, 22, 33, 44, 4, 13, 33, 55, 88),
    (23, "E", 22, 11, 22, 33, 44, 4, 13, 33, 55, 88),
    (24, "E", 24, 12, 24, 36, 48, 5, 14, 36, 60, 96),
    (26, "F", 26, 13, 26, 39, 52, 5, 16, 39, 65, 104),
    (27, "F", 26, 13, 26, 39, 52, 5, 16, 39, 65, 104),
    (29, "F", 28, 14, 28, 42, 56, 6, 17, 42, 70, 112),
    (31, "G", 30, 15, 30, 45, 60, 6, 18, 45, 75, 120),
    (32, "G", 30, 15, 30, 45, 60, 6, 18, 45, 75, 120),
    (34, "G", 32, 16, 32, 48, 64, 6, 19, 48, 80, 128),
    (36, "H", 35, 18, 35, 53, 70, 7, 21, 53, 88, 140),
    (37, "H", 35, 18, 35, 53, 70, 7, 21, 53, 88, 140),
    (39, "H", 40, 20, 40, 60, 80, 8, 24, 60, 100, 160),
]

TOURS_33 = [
    (5, "제주도", 20, 10),
    (15, "경주", 20, 10),
    (25, "우주센터", 30, 15),
    (35, "부산", 25, 12),
]

CARDS_35 = [
    ("L01", "복권 당첨"),
    ("L02", "장학금"),
    ("L03", "주식 배당"),
    ("L04", "생일 축하"),
    ("L05", "예금 이자"),
    ("L06", "과속 벌금"),
    ("L07", "병원비"),
    ("L08", "이웃 돕기 성금"),
    ("L09", "건물 수리비"),
    ("L10", "폭풍 경보"),
    ("L11", "무인도 탈출권"),
    ("L12", "통행료 면제권"),
    ("L13", "출발지로"),
    ("L14", "우주 초대장"),
    ("L15", "서울 관광"),
    ("L16", "뒤로 3칸"),
    ("L17", "기부 천사"),
    ("L18", "관광 안내"),
    ("L19", "여행 경비"),
    ("L20", "재산세"),
]


def test_board_has_40_squares_24_cities_4_tourist_spots_7_cards_5_special() -> None:
    assert len(data.BOARD) == 40
    counts = Counter(data.KIND)
    assert counts["city"] == 24 and counts["tour"] == 4 and counts["card"] == 7
    assert (
        counts["start"]
        + counts["island"]
        + counts["fundReceive"]
        + counts["space"]
        + counts["fundPay"]
        == 5
    )
    assert [(t.pos, t.name, t.kind) for t in data.BOARD] == BOARD_31


def test_price_table_snapshot_matches_spec_3_2() -> None:
    for pos, group, land, *rest in PRICES_32:
        builds, tolls = rest[:4], rest[4:]
        assert data.GROUP_OF[pos] == group
        assert data.LAND_PRICE[pos] == land
        assert list(data.BUILD_COST[pos][1:]) == builds, pos
        assert list(data.CITY_TOLL[pos]) == tolls, pos
    assert sorted(data.CITIES) == [row[0] for row in PRICES_32]


def test_tourist_spots_snapshot_matches_spec_3_3() -> None:
    for pos, name, price, toll in TOURS_33:
        assert data.BOARD[pos].name == name
        assert data.LAND_PRICE[pos] == price and data.TOUR_TOLL[pos] == toll
    assert data.TOURS == (5, 15, 25, 35)


def test_fixed_amounts_match_spec_3_4() -> None:
    assert data.FUND_PAYMENT == 15 and data.SPACE_FEE == 20
    # 매각가 = 50% rounded down: 리스본 빌딩 26 -> 13, 별장 13 -> 6, 땅 26 -> 13
    assert data.SALE_TOP[26][2] == 13 and data.SALE_TOP[26][1] == 6 and data.SALE_ALL[26][0] == 13
    assert data.SALE_ALL[26][2] == 13 + 6 + 13


def test_twenty_lucky_cards_match_spec_3_5() -> None:
    assert [(c.id, c.name) for c in data.CARDS] == CARDS_35
    assert data.BANK_GIFTS == {"L01": 20, "L02": 10, "L03": 15, "L05": 10}
    assert data.FUND_DONATIONS == {"L06": 5, "L08": 10}
    assert data.REPAIR_PER_LEVEL == (0, 3, 6, 10, 15)
    assert data.REPAIR_BY_LEVEL[3] == 19 and data.REPAIR_BY_LEVEL[4] == 34
    assert (
        data.BIRTHDAY_GIFT,
        data.HOSPITAL_BILL,
        data.TRAVEL_EXPENSE,
        data.PROPERTY_TAX_PER_LAND,
    ) == (5, 10, 5, 2)
    assert data.KEPT_CARDS == ("L11", "L12")


def test_lines_are_the_six_cities_of_each_side() -> None:
    assert data.LINES == (
        (1, 3, 4, 6, 8, 9),
        (11, 13, 14, 16, 18, 19),
        (21, 23, 24, 26, 27, 29),
        (31, 32, 34, 36, 37, 39),
    )


def test_half_up_rounding_is_not_bankers_rounding() -> None:
    assert data.BUILD_COST[36][1] == 18  # 35 * 0.5 = 17.5
    assert round(17.5) == 18 and round(16.5) == 16  # why half_up exists
    assert data.CITY_TOLL[36][3] == 88  # 87.5
