"""The rules reference, section by section, in the project's own words.

Body text is a small Markdown subset that `scorer.app.views.rules_reference`
draws: paragraphs (blank line between), `- ` bullets, `1. ` numbered steps,
`### ` subheadings, `> ` worked examples, `**bold**`, and the line
`[[card-points]]` where the card-points table goes. `${name}` placeholders are
figures from the rules engine (`tables.figures`), so the text cannot disagree
with the engine. Every `Reason.section` the engine uses is a section id here
(tests/reference checks it).

The four players in the examples are Ann, Bob, Cid and Dee, sitting in that
order clockwise: Ann & Cid are partners against Bob & Dee.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Template
from typing import Final

from scorer.reference.tables import card_points_text, figures

GAME: Final = "game"
HOUSE: Final = "house"
WORDS: Final = "words"
GROUP_TITLES: Final = {GAME: "The game", HOUSE: "House rules", WORDS: "Table words"}
CARD_TABLE: Final = "[[card-points]]"


@dataclass(frozen=True)
class Section:
    """One part of the reference."""

    id: str
    title: str
    body: str
    keywords: tuple[str, ...] = ()
    group: str = GAME
    house_rule: str | None = None
    """For a house-rule section: the `HouseRules` field it explains."""

    @property
    def search_text(self) -> str:
        """Everything a search looks through, lower-cased."""
        body = self.body.replace(CARD_TABLE, card_points_text())
        return " ".join([self.title, " ".join(self.keywords), body]).casefold()


def _section(id: str, title: str, body: str, keywords: str = "", group: str = GAME,
             house_rule: str | None = None) -> Section:
    text = Template(body.strip()).substitute(figures())
    words = tuple(word.strip() for word in keywords.split(",") if word.strip())
    return Section(id=id, title=title, body=text, keywords=words, group=group,
                   house_rule=house_rule)


_GAME_SECTIONS: Final = (
    _section("table", "Players, partners and seats", """
Tarabish is played by four people in two teams of two. Partners sit across
the table from each other, so the turn always goes from one team to the other.

- The deal moves one seat to the left (clockwise) after every hand, passed
  hands included.
- The player on the dealer's left is **eldest**: eldest speaks first when
  trump is called and leads the first trick. The dealer speaks last.
- Who deals first is up to the table, usually by cutting the cards. The app
  lets you pick the first dealer or draw one at random.

> Ann, Bob, Cid and Dee sit clockwise. Ann & Cid play against Bob & Dee.
> If Dee deals, Ann is eldest and the turn goes Ann, Bob, Cid, Dee.
""", "seat, partner, team, eldest, clockwise, first dealer, turn order"),

    _section("cards", "The deck and what each card is worth", """
The deck has 36 cards: six up to ace in each of the four suits. In the trump
suit the jack and the nine jump to the top and are worth the most. In the
other suits (plain suits) the ace is highest and the jack is worth only ${cheapest}.

[[card-points]]

- Trump suit: ${trump_suit} points. Each plain suit: ${plain_suit} points.
- The team that takes the last trick gets ${last} more.
- So the tricks of a hand are always worth ${trump_suit} + ${plain_suits} + ${last} = **${total}**.
- With no trump (a house rule) all four suits count as plain:
  ${nt_cards} + ${last} = **${nt_total}**.

The trump order only decides who wins a trick. Runs always use the natural
order 6 7 8 9 10 J Q K A, in trumps too.
""", "points, card points, values, trump, plain, johnny, nerf, jack, nine, ace, ten, "
     "deck, 36 cards, table"),

    _section("dealing", "Dealing", """
The dealer shuffles, the player on the dealer's right cuts, and the dealer
hands out all 36 cards, three at a time, starting with eldest: nine cards
each.

Each player picks up their first six cards to decide on trump. The last three
cards stay face down until trump has been named; then everyone picks them up.

The app does not follow the deal itself: it only needs to know who dealt
first, and works out every later dealer from the seats.
""", "deal, shuffle, cut, kitty, three at a time, nine cards"),

    _section("calling", "Calling trump", """
Starting with eldest, each player either names a suit as trump or passes,
once each. The first player to name a suit is the **caller**, and the
caller's team is the team that **goes**: it has to make the hand (see
*Making it*).

- If eldest, the second and the third player all pass, the **dealer must
  call**. The dealer cannot pass in the standard game.
- With the house rule *Dealer may pass* the dealer may pass too. Then nobody
  scores, the app records the hand as **all passed**, and the deal moves on.
- With the house rule *Forced to call* a team that is far ahead may have to call
  rather than leave it to the other side's dealer.

> Dee deals. Ann passes, Bob passes, Cid passes: Dee has to pick a suit, say
> hearts. Dee is the caller, and Bob & Dee have to make the hand.
""", "call, caller, pass, trump, forced dealer, stuck, dealer must call, bid, goes, all passed"),

    _section("play", "Playing the tricks", """
Eldest leads the first card. Everyone plays one card in turn; the four cards
are a trick.

1. **Follow suit**: if you hold a card of the suit that was led, you must
   play one.
2. If you cannot follow suit, you must play a **trump** if you have one.
3. Whenever you play a trump, you must **beat the highest trump** already in
   the trick if you can, even when you are following a trump lead.
4. Only when you can do none of that may you play any card.

The highest trump in the trick wins it; with no trump in it, the highest card
of the suit that was led wins. The winner of a trick leads the next one.
Only the last finished trick may be turned up and looked at again.

Breaking these rules is a **misplay** (see *Misplay*).
""", "follow suit, trump, beat the trump, overtrump, head the trick, lead, trick, renege"),

    _section("runs", "Runs: twenties and fifties", """
A **run** is three or more cards of one suit in a row in the natural order
6 7 8 9 10 J Q K A. The ace is only high: Q K A is a run, K A 6 is not. The
trump order does not make runs: J 9 A of trumps is no run.

- Three in a row is a **twenty**: 20 points.
- Four in a row is a **fifty**: 50 points.
- Five or more in a row: see the house rule *Runs of five or more*. Standard:
  cut from the top into fours, then a three if three cards remain.

### Showing a run
A player announces a run before playing their first card and shows it before
playing their second. A run that is announced but not shown does not count,
so the app records only runs that were shown, card by card.

### Whose runs count
Only **one player** scores runs in a hand. Compare each player's best run:

1. A fifty beats a twenty.
2. Same length: the higher top card wins.
3. Same length and top card: a run in trumps beats a plain run.
4. Same length and top card, both plain: they **cancel**. Nobody scores any
   run this hand, not even a player holding a lower run.

The winning player scores **all** of their runs. Their partner's runs score
nothing (unless the house rule *Partner's runs count* is on).

> Trumps are hearts. Ann shows 9♠ 10♠ J♠ Q♠, a fifty to the queen. Bob shows
> 10♦ J♦ Q♦ K♦, a fifty to the king. Same length, higher top: Bob's runs count,
> 50 to Bob & Dee.

> Trumps are clubs. Ann shows J♣ Q♣ K♣, Bob shows J♦ Q♦ K♦. Same length and
> top card: the trump run wins, 20 to Ann & Cid.

> Trumps are clubs. Ann shows J♠ Q♠ K♠, Bob shows J♦ Q♦ K♦ and Cid shows
> 6♥ 7♥ 8♥. Ann and Bob have equal plain runs: they cancel, and Cid's lower
> twenty scores nothing either.

### How the app rules where the rules are quiet
- One card can be in only one player's runs, and in only one run of theirs.
  The app names the card if it is entered twice.
- A player holds nine cards, so at most nine cards across their runs.
- Two runs of one player that continue each other (6 7 8 and 9 10 J of one
  suit) are really one run of six: enter it once.
- Equal plain runs cancel even when the two players are partners.
- The most one player can score in runs is 100 (two fifties).
""", "run, runs, sequence, twenty, fifty, linganer, compare, tie, cancel, top card, "
     "trump run, show, announce, partner"),

    _section("bella", "Bella", """
**Bella** (also called the bells) is the king and queen of trumps held by one
player. It is worth **20** to that player's team when called.

- Standard: you call "bella" as you play the second of the two cards.
  Calling it on the first one is table talk and scores nothing, unless the
  house rule *Bella on the first card* is on.
- There is no bella without a trump suit (no-trump hands).
- The king and queen may also be part of a run; bella still counts on top.
- The app only records whether bella scored, and who held it.

### How the app rules where the rules are quiet
Bella is refused if another player's shown run holds the king or the queen of
trumps: both must be in one hand.

> Trumps are spades. Cid plays K♠ and later Q♠, saying "bella" with the
> queen: 20 to Ann & Cid.
""", "bella, bells, king, queen, trumps, 20, table talk, called, fifty with the bells"),

    _section("counting", "Counting the tricks", """
When the last trick is played, each team adds up the card points in the
tricks it took, plus ${last} for the last trick. The two figures always add up to
**${total}** (or ${nt_total} with no trump), so only one team needs to count: the
other team's figure is the rest.

- A team can end with any figure from 0 to ${total} except **${never}**. The
  cheapest card that scores is a ${cheapest_card} (${cheapest}), so nobody can have
  just 1, and the other team cannot have the 1 missing from ${total} either.
- With no trump, the impossible figures are ${nt_never}.
- The app's card counter adds up a pile for you: tap the cards in the team's
  tricks and say whether they took the last trick.

> Hearts are trumps. Ann & Cid count J♥ (20), 9♥ (14), A♠ (11), 10♦ (10), K♣ (4),
> Q♣ (3), J♣ (2) and five cards worth nothing, and they took the last trick:
> 64 + 10 = 74. Bob & Dee have ${total} − 74 = 88.
""", "count, counting, 162, 130, trick points, last trick, impossible, 161, total, "
     "card counter, pile"),

    _section("making-it", "Making it", """
The **hand total** is ${total} for the tricks (${nt_total} with no trump), plus the runs
that score, plus bella if it was called. Each team's **hand points** are its
trick points, plus its runs, plus its bella.

The caller's team must take **more than half** of the hand total: with no
runs and no bella that is ${needed} of ${total}. If it does, the hand is **made**,
and each team scores its own hand points.

If the caller's team has exactly half, it is a half-bait; less than half, a
bait (see *Bait and half-bait*).

> Ann called hearts. Cid showed a fifty that counts, Ann called bella, and
> Ann & Cid took 70 in tricks. Hand total: ${total} + 50 + 20 = 232, so they need 117.
> They have 70 + 50 + 20 = 140: made. Ann & Cid score 140, Bob & Dee their 92.
""", "made, make, making it, caller, half, more than half, 82, hand total, needed, "
     "threshold, goes"),

    _section("bait", "Bait and half-bait", """
### Bait
If the caller's team has **less than half** of the hand total, it goes
**bait**: it scores nothing, and the other team scores the **whole hand
total**, including the runs and the bella of the caller's side.

> Ann called. Bob's twenty counts, so the hand total is ${total} + 20 = 182 and
> Ann & Cid need 92. They take 88: bait. Ann & Cid score 0, Bob & Dee all 182.

### Half-bait
If the caller's team has **exactly half**, it is a **half-bait**: the
caller's team scores nothing, and the other team scores only its own hand
points.

> Ann called, no runs, no bella. Ann & Cid take 81 of ${total}: exactly half. Ann &
> Cid score 0, Bob & Dee keep their 81.

House rules change both: *Half-bait is bait* and *Bella kept on bait*.
""", "bait, half bait, half-bait, going bait, short, lose, all, whole hand, exactly half, "
     "set, bate"),

    _section("misplay", "Misplay", """
A **misplay** (renege) is breaking a rule of play: not following suit when
you could, not trumping when you had to, or not beating the highest trump
when you could.

When a team thinks the other side misplayed, it calls it and the table looks
at the tricks. The hand stops there.

- Misplay **upheld**: the team that called it scores the whole hand total
  (all ${total} of the tricks, cards not yet played included, plus runs and bella
  that count). The other team scores 0.
- Misplay **not upheld** (a wrong call): the other team scores the whole hand
  total instead.

No trick points are entered for a misplay hand.

> Hearts are trumps, Ann's fifty counts. Bob & Dee call a misplay on Cid and it
> is upheld: Bob & Dee score ${total} + 50 = 212, Ann & Cid score 0.
""", "misplay, renege, revoke, upheld, not upheld, wrong call, cheat, follow suit"),

    _section("throwing-in", "Throwing in", """
A player may **throw in** their cards, giving up the hand. The other team
scores the whole hand total (the tricks, plus the runs and bella that count),
and the thrower's team scores 0. No trick points are entered.

> Dee throws in. No runs were shown: Ann & Cid score ${total}, Bob & Dee 0.
""", "throw in, thrown in, concede, give up, fold"),

    _section("winning", "Winning the game", """
Scores add up hand by hand. The first aim is **500** (a house rule can change
it). After each hand, if either team has reached the target, the team with
more points wins and the game is over.

- Both teams can pass the target in the same hand: the higher score wins.
- If both teams are at or over the target with exactly the same score, play
  another hand (standard), or see the house rule *Level at the target*.
- After a win the app records no more hands; start a new game instead.

> Ann & Cid have 470, Bob & Dee 430. Next hand Ann & Cid score 40 and Bob &
> Dee 122: 510 to 552, Bob & Dee win.
""", "win, winning, target, 500, game over, end, level, tie"),
)


def _house(key: str, title: str, body: str, keywords: str) -> Section:
    return _section(f"house-{key.replace('_', '-')}", title, body, keywords, HOUSE, key)


_HOUSE_SECTIONS: Final = (
    _house("target", "Target score", """
**Standard: 500.** The game ends after the hand in which a team reaches the
target with more points than the other team. A table can set any target.

> Target 1000: a longer evening. Ann & Cid have 980, Bob & Dee 940. Bob calls
> and makes it, 132 to 30: 1072 to 1010. Both teams reached 1000, and Bob & Dee
> win because they have more.
""", "target, 500, 1000, game length, end"),

    _house("dealer_may_pass", "Dealer may pass", """
**Standard: off.** The dealer must call when the other three pass.

**On:** the dealer may pass as well. When all four pass, nobody scores, the
app records the hand as **all passed**, and the next player deals. While a
team is forced (see *Forced to call*), nobody may let all four pass.

> Dee deals and everyone passes: the hand is recorded as passed, nobody
> scores, and Ann deals next.
""", "dealer pass, all passed, redeal, no call, stuck"),

    _house("forced_at", "Forced to call", """
**Standard: off.** Many tables call it "400 forced". When on, a mark is set
(usually 400). Before each hand, a team whose score is **over** the mark is
**forced**. If both teams are over it, only the team with more points is
forced; if they are level, both are.

A forced team may not let the call reach a dealer from the other team. So
when the dealer is on the other team, the forced player sitting on the
dealer's right (the last to speak before the dealer) must name trump if
everyone before them passed.

- The app refuses a hand in which the dealer called while the other team
  was forced: the player before the dealer had to call.
- With *Dealer may pass* on, an all-pass hand is refused while any team is
  forced.

> Forced at 400. Ann & Cid have 410, Bob & Dee 380: Ann & Cid are forced. Bob
> deals, so the turn goes Cid, Dee, Ann, Bob. If Cid and Dee pass, Ann must
> call: she cannot leave it to Bob.
""", "forced, forced to call, 400, must call, 400 forced, over, mark"),

    _house("long_runs", "Runs of five or more", """
**Standard: split.** A sequence longer than four is cut from the top into
fours, then a three if at least three cards are left. Cards left over count
for nothing.

- 5 or 6 in a row: one fifty.
- 7 in a row: a fifty and a twenty (70).
- 8 or 9 in a row: two fifties (100).

**One fifty:** any sequence of four or more is a single fifty (50).

For comparing runs, a player's best run is their best block: the top four of
a long sequence.

> Ann shows 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥. Split: a fifty to the queen (9 10 J Q) and a
> twenty (6 7 8), 70. One fifty: 50.
""", "long run, five, six, seven, eight, nine in a row, split, one fifty, sequence"),

    _house("run_ties", "Equal plain runs", """
**Standard: cancel.** When the best runs of two players are equal (same
length, same top card) and neither is in trumps, they cancel and nobody scores
any run this hand.

**First to speak:** the tied player who speaks first when trump is called
(nearest the dealer's left) wins, and scores their runs.

> Dee deals, trumps are clubs. Ann shows J♠ Q♠ K♠ and Bob shows J♦ Q♦ K♦.
> Standard: they cancel. First to speak: Ann speaks before Bob, so Ann's run
> counts, 20 to Ann & Cid.
""", "tie, equal runs, cancel, turn order, first to speak, eldest, plain runs"),

    _house("partner_runs", "Partner's runs count", """
**Standard: off.** Only the player whose best run wins scores runs; their
partner's runs score nothing.

**On:** the winner's partner also scores their runs. The other team still
scores none.

> Ann shows a fifty, Bob a twenty, Cid a twenty. Ann's fifty wins. Standard:
> Ann & Cid score 50. With partner's runs: 50 + 20 = 70.
""", "partner, partner runs, team runs, both runs"),

    _house("first_of_bells", "Bella on the first card", """
**Standard: off.** Bella counts only when it is called on the second of the
king and queen of trumps. Calling it on the first card is table talk (it tells
your partner about a trump you still hold) and scores nothing.

**On:** calling bella as you play the first of the two counts too.

The app records only whether bella scored: this rule tells the table whether
to tap bella for the hand.

> Trumps are diamonds. Bob plays K♦ and says "bella", then plays Q♦ later.
> Standard: no bella. With this rule: 20 to Bob & Dee.
""", "first of bells, bella, bells, table talk, first card, king, queen"),

    _house("half_bait_is_bait", "Half-bait is bait", """
**Standard: off.** A caller's team with exactly half of the hand total scores
nothing, and the other team keeps only its own hand points.

**On:** exactly half is a full bait: the other team scores the whole hand total.

> Ann called, no runs or bella. Ann & Cid take 81 of ${total}. Standard: Bob & Dee
> score 81. Half-bait is bait: Bob & Dee score ${total}.
""", "half bait, half-bait, bait, exactly half, 81"),

    _house("bella_kept_on_bait", "Bella kept on bait", """
**Standard: off.** A team that goes bait loses its bella with everything else.

**On:** a team that goes bait keeps its own bella; the other team takes the
rest of the hand total. The same holds on a half-bait: the caller's team keeps
its bella.

> Ann called hearts and called bella; Ann & Cid take 60 in tricks. Hand total
> ${total} + 20 = 182, they need 92 and have 80: bait. Standard: Bob & Dee score 182.
> Bella kept: Ann & Cid score 20, Bob & Dee 162.
""", "bella, bait, keep bella, bells, lose"),

    _house("no_trump", "No trump allowed", """
**Standard: off.** The caller must name a suit.

**On:** the caller may call **no trump**. Every suit then ranks and counts as
a plain suit: the tricks are worth **${nt_total}**, the caller's team needs ${nt_needed}, and
there is no bella. Runs still count, compared by length and top card only
(there is no trump run to break a tie).

> Ann calls no trump, no runs. Ann & Cid take 70 of ${nt_total}: they needed ${nt_needed}, made.
> Ann & Cid score 70, Bob & Dee 60.
""", "no trump, nt, 130, no trumps, sans"),

    _house("target_tie", "Level at the target", """
**Standard: play on.** If both teams are at or over the target with exactly
the same score, nobody has won yet: play another hand.

**Caller wins:** the team that called the last hand wins.

> Target 500. After a hand both teams have 520. Standard: play another hand.
> Caller wins: Bob called that hand, so Bob & Dee win.
""", "tie, level, target, draw, caller wins, play on, equal score"),
)


_WORD_SECTIONS: Final = (
    _section("glossary", "Table words", """
- **Bait**: the calling team took less than half of the hand; the other team
  takes everything. "They went bait."
- **Half bait**: the calling team took exactly half.
- **Bella**, **the bells**: the king and queen of trumps in one hand, 20 points.
- **Twenty**: a run of three cards in a row.
- **Fifty**: a run of four cards in a row.
- **Fifty with the bells**: a run that holds the king and queen of trumps.
- **Linganer**: the lowest twenty, 6 7 8 of a suit, named after the Lingan
  coal mine in Cape Breton.
- **Johnny**: the jack of trumps, the best card in the game (20).
- **The nerf**: the nine of trumps, second best (14). "Johnny and the nerf"
  are the two top trumps.
- **Dry ten**: a ten with no other card of its suit in the hand, easy for the
  ace to catch.
- **Forced**: a team over the forced mark that must call rather than let the
  call reach the other side's dealer.
- **Last**: the last trick, worth ${last} extra.
- **Eldest**: the player on the dealer's left, who speaks and leads first.
- **Caller**, **going**: the player who named trump; their team goes and must
  make the hand.
- **Renege**: another word for a misplay.
- **Throw in**: give up the hand; the other team takes it all.
""", "glossary, words, terms, slang, bait, half bait, bella, bells, twenty, fifty, linganer, "
     "johnny, nerf, dry ten, forced, last, eldest, renege", WORDS),
)

SECTIONS: Final[tuple[Section, ...]] = (*_GAME_SECTIONS, *_HOUSE_SECTIONS, *_WORD_SECTIONS)
BY_ID: Final[dict[str, Section]] = {section.id: section for section in SECTIONS}


def house_section_id(key: str) -> str:
    """The section explaining the `HouseRules` field `key`."""
    return f"house-{key.replace('_', '-')}"


def title_of(section_id: str) -> str:
    """A section's title ("Half-bait is bait"), for a link to it; the id if unknown."""
    return next((s.title for s in SECTIONS if s.id == section_id), section_id)
