import { LegalHeading, LegalList, LegalParagraph } from './legal-prose';

export function CommunityGuidelines() {
  return (
    <>
      <LegalHeading>What to share</LegalHeading>
      <LegalParagraph>
        Snap Cracks celebrates unexpected cracks: in pavements and walls, in ice and dried mud, on windows,
        screens and everyday objects. Share your own photos, describe where you found the crack, and keep it fun
        and friendly.
      </LegalParagraph>

      <LegalHeading>What is not allowed</LegalHeading>
      <LegalList
        items={[
          'Explicit, sexual or suggestive content.',
          'Harmful content: violence, gore, self-harm, dangerous activities or anything illegal.',
          'Offensive content: hate speech, discrimination, harassment, bullying or threats.',
          "Other people's personal information, or photos that identify people without their consent.",
          'Photos you do not have the right to share, spam, advertising or off-topic images.',
        ]}
      />

      <LegalHeading>Respect privacy</LegalHeading>
      <LegalParagraph>
        Before you submit, use the privacy bars to cover faces, number plates, house numbers and anything else
        that could identify a person or a private place.
      </LegalParagraph>

      <LegalHeading>Vote fairly</LegalHeading>
      <LegalParagraph>
        Rate each photo on its own merits using the 5-star scale. You have one vote per photo, and your vote can
        be changed whenever you like. Do not use multiple accounts, coordinate votes or otherwise manipulate
        ratings.
      </LegalParagraph>

      <LegalHeading>Moderation</LegalHeading>
      <LegalParagraph>
        All content is moderated. Our moderators review every upload and may approve it, reject it, request
        changes or remove it, including content that was approved earlier. Photos are visible in the gallery only
        once they have been approved, and a rejection always comes with a reason you can read in your dashboard.
      </LegalParagraph>

      <LegalHeading>Enforcement</LegalHeading>
      <LegalParagraph>Depending on how serious and how repeated a violation is, we may:</LegalParagraph>
      <LegalList
        items={[
          'remove the content;',
          'issue a warning;',
          'temporarily suspend the account;',
          'permanently suspend the account;',
          'report illegal content or activity to the authorities.',
        ]}
      />

      <LegalHeading>Seen something wrong?</LegalHeading>
      <LegalParagraph>
        If you spot content that breaks these guidelines, tell us through the contact page and our team will look
        into it.
      </LegalParagraph>
    </>
  );
}
