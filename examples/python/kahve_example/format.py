"""Text for the transcript. Messages print in protobuf's one-line text format, so the client needs
no knowledge of any ruleset's moves to show them."""

from google.protobuf import text_format


def message_text(message):
    """A message on one line, e.g. 'liars_dice { bid { quantity: 3 face: 5 } }'."""
    return text_format.MessageToString(message, as_one_line=True)


def detail_text(detail):
    """A decoded detail with its type: 'kahve.v1.StaleSeq { table_seq: 7 expected_seq: 6 }'."""
    return f"{detail.DESCRIPTOR.full_name} {{ {message_text(detail)} }}"


def result_text(result, names):
    """The seats by rank with their players and scores, then the ending."""
    seats = sorted(result.seats, key=lambda s: (s.rank, s.seat))
    ranked = ", ".join(f"{names.get(s.seat, '?')} (seat {s.seat}) rank {s.rank} score {s.score:g}"
                       for s in seats)
    return f"{ranked}; {result.ending}"


def rating_text(rating):
    games = f"{rating.games} game{'' if rating.games == 1 else 's'}"
    provisional = ", provisional" if rating.provisional else ""
    return (f"mu {rating.mu:.2f} sigma {rating.sigma:.2f} display {rating.display:.2f} "
            f"({games}{provisional})")
