/**
 * The gateway's request and response shapes as the web app uses them: every one inferred from the HTTP contract's zod
 * schemas (proto/http, `@snapcracks/http-contract`), which the gateway validates and serializes with, so the two cannot
 * drift. Names here are the web app's; none of the shapes is written by hand.
 */
import type { DESK, REPORTS, REVIEW, schemas } from '@snapcracks/http-contract';
import type { z } from '@/lib/zod';

export type {
  AdminPhotoPage,
  AdminStats,
  AdminUser,
  AdminUserEdit,
  AdminUserPage,
  BulkApprovalResult,
  CleanupResult,
  ContactFormCounts,
  ContactFormStatus,
  DataExport,
  DecisionReversal,
  DeskClaim,
  DeskItem,
  DeskNext,
  DeskNextRequest,
  GalleryPage,
  GalleryPhoto,
  GalleryStats,
  MyVote,
  NotificationKind,
  NotificationPage,
  NotificationSettings,
  NotificationSettingsUpdate,
  PhotoPreview,
  PhotoStatus,
  PrivacyBar,
  RatedPhoto,
  ReasonTemplate,
  ReasonTemplateInput,
  ReasonTemplateList,
  Report,
  ReportCategory,
  ReportDecisionResult,
  ReportedPhoto,
  ReportedPhotoPage,
  ReportPage,
  ReportResult,
  ReportStatus,
  ReviewFigures,
  ReviewMarks,
  UploadAllowance,
  UploadAllowanceSettings,
  UploadedPhoto,
  User,
  UnreadNotifications,
  UserStats,
  VoteResult,
} from '@snapcracks/http-contract';
export type {
  AdminPhoto,
  AuditEntry as AdminAuditEntry,
  AvatarResult as AvatarUploadResult,
  ContactForm as ContactFormItem,
  ContactFormPage as ContactFormList,
  ContactMessage as ContactMessageInput,
  DescriptionEdit as PhotoUpdateInput,
  DriveAuthUrl as GoogleDriveAuthUrl,
  DriveRefreshToken as GoogleDriveRefreshToken,
  GalleryFilter as GalleryFilterId,
  // The DOM has its own Notification (the browser's notices): the app's is a member's notice from the server.
  Notification as MemberNotification,
  Photo as UserPhoto,
  PrivacyBars as PrivacyBarsResponse,
  Uploader as PhotoUploader,
} from '@snapcracks/http-contract';

/** A member's report of a photo, as sent. */
export type ReportInput = z.input<typeof schemas.reportBody>;
/** An admin's decision on a photo's reports: a removal always carries its reason. */
export type ReportDecisionInput = { photoId: number } & ({ decision: (typeof REPORTS.decisions)[0] } | { decision: (typeof REPORTS.decisions)[1]; reason: string });
export type ReportedPhotoOrder = (typeof REPORTS.orders)[number];

/** The admin's photo lists (SPEC §7 Admin), named as the gateway names them. */
export type AdminPhotoList = (typeof REVIEW.lists)[number];
export type CleanupKind = (typeof REVIEW.cleanups)[number];
/** The support screen's filters: one status, or all of them. */
export type ContactFormFilter = Exclude<z.input<typeof schemas.contactFormQuery>['status'], undefined>;
/** A review decision on a photo: a rejection always carries its reason (SPEC §5). */
export type ReviewDecision = { id: number } & ({ status: (typeof REVIEW.statuses)[0] } | { status: (typeof REVIEW.statuses)[1]; rejectionReason: string });

/** What brought a photo to the review desk: a new upload, a resubmission, or members' reports. */
export type DeskKind = (typeof DESK.kinds)[number];

/** The Raters page (honest votes): each member who rated a photo, with the figures that may show dishonest voting. */
export type { Rater, RaterAction, RaterPage, RaterSort, RaterVote, RaterVotePage, VoteVoidRequest as VoteVoidInput, VoteVoidResult } from '@snapcracks/http-contract';
