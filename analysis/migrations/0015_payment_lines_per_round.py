"""A round's payment lines stored as one packed text on its settlement
(``RoundSettlement.lines``, analysis.compact.dumps_lines) instead of a ``Payment`` row per
line, and the money between the seats of a round on its seat rows
(``SeatResult.net_from_0`` … ``net_from_3``), which head-to-head figures read
(docs/scaling.md, "Storage").

Forward, in batches of rounds: each settlement's lines packed from its rows, each seat
row's money from every seat summed from them; then the table dropped. Backward: the table
again, its rows unpacked from the settlements' lines (the players from the seats).
"""

from collections.abc import Iterator
from typing import Any

from django.db import migrations, models

from analysis import compact

BATCH = 5000
#: a seat row's money from seat ``{seat}``, summed from its round's lines
_NET_FROM = (
    "net_from_{seat} = COALESCE((SELECT sum(CASE WHEN p.payee = s.seat THEN p.amount"
    " ELSE -p.amount END) FROM analysis_payment AS p WHERE p.round_id = s.round_id AND"
    " ((p.payee = s.seat AND p.payer = {seat}) OR (p.payer = s.seat AND p.payee = {seat}))),"
    " 0)"
)


def _batches(cursor: Any) -> Iterator[tuple[int, int]]:
    """The settlements' round ids, as ranges of up to BATCH settlements."""
    last = 0
    while True:
        cursor.execute(
            "SELECT round_id FROM analysis_roundsettlement WHERE round_id > %s"
            " ORDER BY round_id LIMIT %s",
            [last, BATCH],
        )
        ids = [row[0] for row in cursor.fetchall()]
        if not ids:
            return
        yield ids[0], ids[-1]
        last = ids[-1]


def _pack_batch(cursor: Any, low: int, high: int) -> None:
    """The settlements of rounds ``low``…``high``: their lines packed from the rows, and
    their seat rows' money from each seat. Run twice, it writes the same."""
    cursor.execute(
        "SELECT round_id, payer, payee, amount, reason, params, detail FROM analysis_payment"
        " WHERE round_id BETWEEN %s AND %s ORDER BY round_id, ordinal",
        [low, high],
    )
    lines: dict[int, list[dict[str, Any]]] = {}
    for round_id, payer, payee, amount, reason, params, detail in cursor.fetchall():
        lines.setdefault(round_id, []).append({
            "payer": payer, "payee": payee, "amount": amount, "reason": reason,
            "params": compact.loads(params), "stored_detail": detail,
        })  # fmt: skip
    cursor.executemany(
        "UPDATE analysis_roundsettlement SET lines = %s WHERE round_id = %s",
        [(compact.dumps_lines(found), round_id) for round_id, found in lines.items()],
    )
    cursor.execute(
        "UPDATE analysis_seatresult AS s SET "
        + ", ".join(_NET_FROM.format(seat=seat) for seat in range(4))
        + " WHERE s.round_id BETWEEN %s AND %s",
        [low, high],
    )


def pack_lines(apps: Any, schema_editor: Any) -> None:
    with schema_editor.connection.cursor() as cursor:
        for low, high in _batches(cursor):
            _pack_batch(cursor, low, high)


def _unpack_batch(cursor: Any, low: int, high: int) -> None:
    """The rows of rounds ``low``…``high`` written again from their settlements' lines
    (those already there replaced: run twice, it writes the same)."""
    cursor.execute(
        "SELECT r.id, s.seat, s.player_id FROM records_round AS r JOIN records_seat AS s"
        " ON s.match_id = r.match_id WHERE r.id BETWEEN %s AND %s",
        [low, high],
    )
    players = {(round_id, seat): player for round_id, seat, player in cursor.fetchall()}
    cursor.execute(
        "SELECT round_id, lines FROM analysis_roundsettlement WHERE round_id BETWEEN %s AND %s",
        [low, high],
    )
    rows = [
        (round_id, ordinal, line["payer"], line["payee"], line["amount"], line["reason"],
         compact.dumps(line["params"]), line["stored_detail"],
         players.get((round_id, line["payer"])), players.get((round_id, line["payee"])))
        for round_id, text in cursor.fetchall()
        for ordinal, line in enumerate(compact.loads_lines(text))
    ]  # fmt: skip
    cursor.execute("DELETE FROM analysis_payment WHERE round_id BETWEEN %s AND %s", [low, high])
    cursor.executemany(
        "INSERT INTO analysis_payment (round_id, ordinal, payer, payee, amount, reason, params,"
        " detail, payer_player_id, payee_player_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s,"
        " %s)",
        rows,
    )


def unpack_lines(apps: Any, schema_editor: Any) -> None:
    with schema_editor.connection.cursor() as cursor:
        for low, high in _batches(cursor):
            _unpack_batch(cursor, low, high)


def _net_from(seat: int) -> models.IntegerField:  # type: ignore[type-arg]
    return models.IntegerField(
        default=0,
        help_text=f"Received from seat {seat} in the round's payment lines, less paid to it.",
    )


class Migration(migrations.Migration):
    # each batch commits on its own: millions of lines are not rewritten in one
    # transaction; every data step is idempotent: an interrupted run is run again
    atomic = False

    dependencies = [
        ("analysis", "0014_compact_params_no_report"),
    ]

    operations = [
        migrations.AddField(
            model_name="roundsettlement",
            name="lines",
            field=models.TextField(
                default="[[]]",
                help_text="The round's payment lines, packed (analysis.compact.dumps_lines).",
            ),
        ),
        *(
            migrations.AddField(model_name="seatresult", name=f"net_from_{seat}",
                                field=_net_from(seat))
            for seat in range(4)
        ),  # fmt: skip
        migrations.RunPython(pack_lines, unpack_lines),
        migrations.DeleteModel(name="Payment"),
    ]
