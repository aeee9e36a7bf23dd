// The product spec's states and transitions, Chat keyword routing (case-insensitive whole words): email, emails, inbox,
// message, unread trigger a mail lookup; folder, organize, categorize trigger folder guidance.
// Each word also counts in its plural and its British spelling and forms ('messages', 'inboxes',
// 'e-mail', 'folders', 'organise', 'organising', 'categorised'). Written without nested
// quantifiers, so matching is linear in the message's length.

/** Words that make the coach look at the user's mail. */
export const mailTrigger = /\b(?:e-?mails?|inbox(?:es)?|messages?|unread|mail)\b/i;

/** Words that make the coach give folder guidance. */
export const folderTrigger = /\b(?:(?:sub-?)?folders?|organi[sz](?:e|es|ed|ing)|categori[sz](?:e|es|ed|ing))\b/i;
