// Interface placeholder: the chat UI work replaces this with the real list.
export function RecentChats(_props: { onNavigate: () => void }) {
  return null;
}
