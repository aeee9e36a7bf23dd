// The one shape of a meeting of the user's calendar, shared by the server's calendar code (Graph's
// events, the meetings API, the prep's stored invite, the coach's view of it) and the browser.

/** Someone a meeting names: its organizer, or (with their answer) an attendee. */
export type MeetingPerson = { name: string; email: string };
export type MeetingAttendee = MeetingPerson & { response: string };

/** A meeting as the meetings API answers it: `start` and `end` are ISO times with their offset. */
export type Meeting = {
  id: string;
  subject: string;
  start: string;
  end: string;
  organizer: MeetingPerson;
  attendees: MeetingAttendee[];
  location: string;
  isOnline: boolean;
  joinUrl: string | null;
  bodyPreview: string;
};

/** A meeting's invite as the coach is given it and a prep keeps it: the body as plain text. */
export type MeetingInvite = Pick<Meeting, 'subject' | 'start' | 'end' | 'organizer' | 'attendees' | 'location' | 'isOnline'> & { body: string };
