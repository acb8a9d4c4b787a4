import { LegalHeading, LegalList, LegalParagraph } from './legal-prose';

export function PrivacyPolicy() {
  return (
    <>
      <LegalHeading>1. Information we collect</LegalHeading>
      <LegalList
        items={[
          'Account details from your identity provider when you sign in: your name, email address and profile picture.',
          'Profile details you choose to add, such as a display name or a custom avatar.',
          'Content you upload: photos, descriptions and the privacy bars you draw over them.',
          'Your activity in the community: the ratings you give and the photos you upload.',
          'Messages you send us through the contact form, including your name and email address.',
          'A session cookie that keeps you signed in. Your light or dark theme choice is stored only in your browser.',
        ]}
      />

      <LegalHeading>2. How we use your information</LegalHeading>
      <LegalList
        items={[
          'To run your account and show your photos, ratings and profile in the community.',
          'To moderate uploads and keep Snap Cracks safe.',
          'To calculate ratings, rankings and the statistics on your dashboard.',
          'To answer your messages and support requests.',
          'To protect the service against abuse, fraud and rating manipulation.',
        ]}
      />
      <LegalParagraph>We do not sell your personal information, and we do not use it for third-party advertising.</LegalParagraph>

      <LegalHeading>3. What other members can see</LegalHeading>
      <LegalParagraph>
        Once a photo is approved, other members can see it with its description, your display name and avatar,
        and its average rating. Individual votes are not shown to other members. Your email address is never shown
        publicly; only administrators can see it, to run the service and respond to you.
      </LegalParagraph>

      <LegalHeading>4. Your photos</LegalHeading>
      <LegalParagraph>
        You keep ownership of your photos. Please use the privacy bars to cover faces, number plates and other
        details that could identify people. Displayed photos carry a faint watermark to discourage copying.
        Photos are stored on our own servers or with our cloud storage provider, which processes them only on
        our behalf.
      </LegalParagraph>

      <LegalHeading>5. How long we keep information</LegalHeading>
      <LegalParagraph>
        We keep your account information for as long as your account exists. Rejected or removed photos and
        files that are no longer used are deleted during regular clean-ups. Contact messages are kept only as long
        as needed to handle your request.
      </LegalParagraph>

      <LegalHeading>6. Your choices and rights</LegalHeading>
      <LegalList
        items={[
          'You can change your display name and avatar at any time on your profile page.',
          'You can edit or delete your own photos from your dashboard.',
          'You can ask us for a copy of your data, to correct it, or to delete your account through the contact page.',
        ]}
      />

      <LegalHeading>7. Security</LegalHeading>
      <LegalParagraph>
        We protect your information with encrypted connections, secure session cookies and restricted
        administrator access. No system is perfectly secure, but we work to protect your data and will notify you
        if a breach affects you.
      </LegalParagraph>

      <LegalHeading>8. Children</LegalHeading>
      <LegalParagraph>
        Snap Cracks is not intended for children under 13, and we do not knowingly collect their personal
        information.
      </LegalParagraph>

      <LegalHeading>9. Changes and contact</LegalHeading>
      <LegalParagraph>
        If we change this policy we will update the date above. For any privacy question, reach us through our
        contact page.
      </LegalParagraph>
    </>
  );
}
