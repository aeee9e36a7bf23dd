import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { trpc, trpcClient } from '../../lib/trpc';

const emailsKey = [...trpc.microsoft.emails.pathKey(), 'pages'] as const;

/** The inbox, 25 at a time; "load more" follows Graph's paging. */
export function useEmailPages(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: emailsKey,
    enabled,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => trpcClient.microsoft.emails.query({ pageSize: 25, ...(pageParam ? { pageToken: pageParam } : {}) }),
    getNextPageParam: (last) => last.nextPageToken ?? undefined,
  });
}

export function useFolders(enabled: boolean) {
  return useQuery({ ...trpc.microsoft.folders.queryOptions(), enabled });
}
