import { LegalHeading, LegalList, LegalParagraph } from './legal-prose';

export function TermsOfService() {
  return (
    <>
      <LegalHeading>1. Acceptance of these terms</LegalHeading>
      <LegalParagraph>
        Snap Cracks is a community for sharing photos of unexpected cracks and rating them. By creating an
        account or using the service you agree to these Terms of Service, our Privacy Policy and our Community
        Guidelines. If you do not agree, please do not use Snap Cracks.
      </LegalParagraph>

      <LegalHeading>2. Your account</LegalHeading>
      <LegalParagraph>
        You sign in through an external identity provider, and your Snap Cracks account is created the first
        time you do. You are responsible for everything that happens under your account, so keep access to your
        sign-in method secure and tell us promptly if you think someone else has used it.
      </LegalParagraph>

      <LegalHeading>3. Your content and ownership</LegalHeading>
      <LegalParagraph>
        You keep ownership of the photos and descriptions you upload. Snap Cracks never claims ownership of
        your content. By uploading, you grant us a worldwide, non-exclusive, royalty-free licence to store,
        reproduce, resize, watermark and display your content on Snap Cracks, solely to operate and promote the
        service. This licence ends when your content is removed, except for copies kept for a limited time in
        backups or where the law requires us to keep them.
      </LegalParagraph>
      <LegalParagraph>
        You confirm that you took the photo or have the right to share it, and that sharing it does not infringe
        anyone&rsquo;s copyright, privacy or other rights.
      </LegalParagraph>

      <LegalHeading>4. Acceptable content</LegalHeading>
      <LegalParagraph>
        Uploads must fit the spirit of the community and follow the Community Guidelines. You must not upload
        explicit, harmful or offensive content, including sexual material, violence, hate speech, harassment,
        illegal activity or personal information about other people.
      </LegalParagraph>

      <LegalHeading>5. Moderation and visibility</LegalHeading>
      <LegalParagraph>
        All content on Snap Cracks is moderated. Every photo is reviewed by our moderation team, who may
        approve it, reject it, request changes or remove it at any time. A new photo stays private while it
        waits for review and is visible in the gallery only once it has been approved. If a photo is rejected,
        you can see the reason in your dashboard.
      </LegalParagraph>

      <LegalHeading>6. Voting</LegalHeading>
      <LegalParagraph>
        Signed-in members can rate approved photos from 1 to 5 stars, with one vote per member per photo. You can
        change your vote at any time. Any attempt to manipulate ratings, for example with multiple accounts or
        automated voting, is prohibited and may lead to removed votes and account action.
      </LegalParagraph>

      <LegalHeading>7. Enforcement and termination</LegalHeading>
      <LegalParagraph>
        If you break these terms, we may take action that fits the seriousness of the problem: removing content,
        issuing warnings, temporarily or permanently suspending your account, and reporting illegal content or
        activity to the authorities. You may stop using Snap Cracks at any time.
      </LegalParagraph>

      <LegalHeading>8. Disclaimers and liability</LegalHeading>
      <LegalParagraph>
        Snap Cracks is provided &ldquo;as is&rdquo; and &ldquo;as available&rdquo;. We work to keep it running and
        your content safe, but we cannot promise uninterrupted service or that content will never be lost. To the
        extent the law allows, we are not liable for indirect or consequential losses arising from your use of
        the service.
      </LegalParagraph>

      <LegalHeading>9. Changes to these terms</LegalHeading>
      <LegalParagraph>
        We may update these terms as the service evolves. When we make significant changes we will update the
        date above and, where appropriate, ask you to accept the new terms before you continue.
      </LegalParagraph>

      <LegalHeading>10. Contact</LegalHeading>
      <LegalList
        items={[
          'Questions about these terms can be sent through our contact page.',
          'We aim to answer every message within a few business days.',
        ]}
      />
    </>
  );
}
