import type { z } from 'zod';
import type { routes } from './routes.js';
import type * as s from './schemas/index.js';

type Routes = typeof routes;

/** What a route answers on success, as the client reads it. */
export type ResponseOf<N extends keyof Routes> = Routes[N]['ok'] extends { json: infer S extends z.ZodType } ? z.output<S> : never;
/** What a route's JSON body may be, as the client sends it. */
export type BodyOf<N extends keyof Routes> = Routes[N] extends { body: { type: 'json'; schema: infer S extends z.ZodType } } ? z.input<S> : never;

export type User = z.output<typeof s.user>;
export type AdminUser = z.output<typeof s.adminUser>;
export type AdminUserPage = z.output<typeof s.adminUserPage>;
export type AdminUserEdit = z.input<typeof s.adminUserEdit>;
export type AvatarResult = z.output<typeof s.avatarResult>;

export type PhotoStatus = z.output<typeof s.photoStatus>;
export type PrivacyBar = z.output<typeof s.privacyBar>;
export type Uploader = z.output<typeof s.uploader>;
export type Photo = z.output<typeof s.photo>;
export type GalleryPhoto = z.output<typeof s.galleryPhoto>;
export type PhotoPreview = z.output<typeof s.photoPreview>;
export type UploadedPhoto = z.output<typeof s.uploadedPhoto>;
export type PrivacyBars = z.output<typeof s.privacyBars>;
export type DescriptionEdit = z.input<typeof s.descriptionEdit>;
export type ResubmissionRequest = z.input<typeof s.resubmissionBody>;

export type GalleryFilter = z.output<typeof s.galleryFilter>;
export type GalleryPage = z.output<typeof s.galleryPage>;
export type GalleryStats = z.output<typeof s.galleryStats>;

export type MyVote = z.output<typeof s.myVote>;
export type VoteResult = z.output<typeof s.voteResult>;

export type RatedPhoto = z.output<typeof s.ratedPhoto>;
export type UserStats = z.output<typeof s.userStats>;
export type AdminStats = z.output<typeof s.adminStats>;

export type ReviewDecision = z.input<typeof s.reviewBody>;
export type AuditEntry = z.output<typeof s.auditEntry>;
export type ReviewMarks = z.output<typeof s.reviewMarks>;
export type AdminPhoto = z.output<typeof s.adminPhoto>;
export type AdminPhotoPage = z.output<typeof s.adminPhotoPage>;
export type CleanupResult = z.output<typeof s.cleanupResult>;

export type UploadAllowance = z.output<typeof s.uploadAllowance>;
export type UploadAllowanceSettings = z.output<typeof s.uploadAllowanceSettings>;

export type ReportCategory = z.output<typeof s.reportCategory>;
export type ReportStatus = z.output<typeof s.reportStatus>;
export type ReportSubmission = z.input<typeof s.reportBody>;
export type Report = z.output<typeof s.myReport>;
export type ReportResult = z.output<typeof s.reportResult>;
export type ReportPage = z.output<typeof s.myReportPage>;
export type ReportedPhoto = z.output<typeof s.reportedPhoto>;
export type ReportedPhotoPage = z.output<typeof s.reportedPhotoPage>;
export type ReportDecision = z.input<typeof s.reportDecisionBody>;
export type ReportDecisionResult = z.output<typeof s.reportDecisionResult>;

export type ContactMessage = z.input<typeof s.contactBody>;
export type ContactFormStatus = z.output<typeof s.contactFormStatus>;
export type ContactForm = z.output<typeof s.contactForm>;
export type ContactFormCounts = z.output<typeof s.contactFormCounts>;
export type ContactFormPage = z.output<typeof s.contactFormPage>;

export type DriveAuthUrl = z.output<typeof s.driveAuthUrl>;
export type DriveRefreshToken = z.output<typeof s.driveRefreshToken>;

export type ImageSize = s.ImageSize;

export type DeskNext = z.output<typeof s.deskNext>;
export type DeskItem = z.output<typeof s.deskItem>;
export type DeskClaim = z.output<typeof s.deskClaim>;
export type DeskNextRequest = z.input<typeof s.deskNextBody>;
export type BulkApprovalResult = z.output<typeof s.bulkApprovalResult>;
export type DecisionReversal = z.input<typeof s.reversalBody>;
export type ReasonTemplate = z.output<typeof s.reasonTemplate>;
export type ReasonTemplateInput = z.input<typeof s.reasonTemplateBody>;
export type ReasonTemplateList = z.output<typeof s.reasonTemplateList>;
export type ReviewFigures = z.output<typeof s.reviewFigures>;

export type Rater = z.output<typeof s.rater>;
export type RaterPage = z.output<typeof s.raterPage>;
export type RaterVote = z.output<typeof s.raterVote>;
export type RaterAction = z.output<typeof s.raterAction>;
export type RaterVotePage = z.output<typeof s.raterVotePage>;
export type RaterSort = z.output<typeof s.raterQuery>['sort'];
export type VoteVoidRequest = z.input<typeof s.voteVoidBody>;
export type VoteVoidResult = z.output<typeof s.voteVoidResult>;

export type Notification = z.output<typeof s.notification>;
export type NotificationKind = z.output<typeof s.notificationKind>;
export type NotificationPage = z.output<typeof s.notificationPage>;
export type UnreadNotifications = z.output<typeof s.unreadCount>;
export type NotificationSettings = z.output<typeof s.notificationSettings>;
export type NotificationSettingsUpdate = z.input<typeof s.notificationSettingsBody>;

export type DataExport = z.output<typeof s.dataExport>;
export type DataExportStatus = z.output<typeof s.dataExportStatus>;
