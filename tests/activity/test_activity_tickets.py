"""The tickets that open a page's socket: who they name, how long they last, who can make one."""

from __future__ import annotations

import jwt
import pytest

from bot.activity.tickets import EXPIRED, FORGED, Member, TicketRefused, Tickets, ticket_key

ALICE = Member(
    user_id=1_000_000_000_000_000_001,
    name="alice",
    locale="de",
    guild_id=2_000_000_000_000_000_002,
    channel_id=3_000_000_000_000_000_003,
    instance_id="i-1-gc-2-3",
)


def test_a_ticket_names_the_member_it_was_issued_to_until_it_expires():
    tickets = Tickets("secret", ttl_s=600)
    ticket = tickets.issue(ALICE, now=1_000_000)
    assert tickets.read(ticket, now=1_000_000 + 599) == ALICE
    with pytest.raises(TicketRefused) as refused:
        tickets.read(ticket, now=1_000_000 + 600)
    assert (refused.value.reason, refused.value.message) == ("expired", EXPIRED)


def test_a_real_expired_ticket_is_refused_on_the_wall_clock_too():
    tickets = Tickets("secret", ttl_s=600)
    stale = tickets.issue(ALICE, now=1_000_000)  # 1970: long expired
    with pytest.raises(TicketRefused, match="expired"):
        tickets.read(stale)
    assert tickets.read(tickets.issue(ALICE)) == ALICE


def test_a_ticket_signed_with_another_secret_or_altered_is_forged():
    ours = Tickets("secret", ttl_s=600)
    theirs = Tickets("another secret", ttl_s=600)
    with pytest.raises(TicketRefused) as refused:
        ours.read(theirs.issue(ALICE))
    assert (refused.value.reason, refused.value.message) == ("forged", FORGED)
    # A page that rewrites its own ticket to claim to be someone else: the signature no longer fits.
    header, claims, signature = ours.issue(ALICE).split(".")
    forged_claims = jwt.utils.base64url_encode(
        jwt.utils.base64url_decode(claims).replace(b'"1000000000000000001"', b'"1000000000000000009"')
    ).decode()
    with pytest.raises(TicketRefused, match="forged"):
        ours.read(f"{header}.{forged_claims}.{signature}")
    # Unsigned ("alg": "none") and rubbish are forged too.
    unsigned = jwt.encode(
        {"sub": "1", "aud": "party-cards-activity", "exp": 9e9, "iat": 0}, None, algorithm="none"
    )
    for ticket in (unsigned, "", "not.a.ticket"):
        with pytest.raises(TicketRefused, match="forged"):
            ours.read(ticket)


def test_every_process_with_the_same_secret_reads_the_others_tickets():
    # Two shard processes, or the bot before and after a restart.
    assert Tickets("secret", 600).read(Tickets("secret", 600).issue(ALICE)) == ALICE
    assert ticket_key("secret") != b"secret"  # the key is derived, never the client secret itself


def test_a_ticket_with_the_right_signature_but_missing_claims_is_refused():
    key = ticket_key("secret")
    claims = {"sub": "1", "aud": "party-cards-activity", "exp": 9_999_999_999, "iat": 0}
    with pytest.raises(TicketRefused, match="forged"):
        Tickets("secret", 600).read(jwt.encode(claims, key, algorithm="HS256"))
